import fc from 'fast-check';
import type { DetectionEventRecord } from '@vigil/contracts';
import {
  compileToSql,
  normalizeEmployeeEmail,
  parseQuery,
  printQuery,
  type SqlParam,
} from '@vigil/query-language';
import { anEventRecord } from '../support/event-records';
import { request, type JsonResponse } from '../support/http-client';
import { queryOver, type ValuePools } from '../support/query-arbitraries';
import { startQueryApiHarness, type QueryApiHarness } from '../support/query-api-harness';

jest.setTimeout(240_000);

const EVENT_COUNT = 4_000;
const QUERY_COUNT = 2_000;
const CONCURRENCY = 8;
const TABLE = 'query_api_differential_events';

/** A small deterministic generator, so a failing data set can be rebuilt from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EMAILS = [
  'ada@example.com',
  'Ada@Example.com',
  'ADA@EXAMPLE.COM',
  'grace.hopper@navy.mil',
  'Grace.Hopper@Navy.mil',
  'zoë@example.com',
  'Zoë@Example.com',
  'İlker@example.com',
  'alan@example.com',
  "o'brien@example.com",
  'bob@x.io',
];
const SOURCES = ['okta', 'google', 'github', 'slack', 'Okta', 'crowdstrike'];
const ID_PREFIXES = ['evt-', 'EVT-', 'e_', 'Z', 'évt-', 'evt-0'];

function generateEvents(seed: number): DetectionEventRecord[] {
  const next = random(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  const base = Date.UTC(2025, 0, 1);
  // 300 instants for 4,000 events: many ties on happened.
  const instants = Array.from({ length: 300 }, () => base + Math.floor(next() * 90 * 86_400_000));
  return Array.from({ length: EVENT_COUNT }, (_, i) => {
    const crowd = i % 4 === 0;
    return anEventRecord({
      id: `${pick(ID_PREFIXES)}${i.toString(36)}`,
      detection_id: crowd ? 'det-crowd' : `det-${i % 3}`,
      detection_name: crowd ? 'Crowd' : `Detection ${i % 3}`,
      employee_email: crowd ? `User${i % 700}@Corp.example` : pick(EMAILS),
      employee_name: `Person ${i % 50}`,
      happened: pick(instants),
      risk_score: pick([0, 10, 3.3333, 0.001, Math.round(next() * 1000) / 100]),
      source: pick(SOURCES),
      high_prevalence: next() < 0.3,
      allowlisted: next() < 0.2,
    });
  });
}

async function inBatches<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let nextIndex = 0;
  const worker = async () => {
    while (nextIndex < items.length) {
      const i = nextIndex++;
      results[i] = await run(items[i]);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return results;
}

describe('query API against the SQL compiler over the same events', () => {
  const seed = Number(process.env.VIGIL_DIFFERENTIAL_SEED ?? Date.now() % 2 ** 31);
  const events = generateEvents(seed);
  let api: QueryApiHarness;
  let token: string;

  beforeAll(async () => {
    api = await startQueryApiHarness('query-api-diff', { API_RATE_LIMIT_PER_MINUTE: '1000000' });
    await api.index(events);
    await api.sql.query(`CREATE TABLE ${TABLE} (
      id text PRIMARY KEY, detection_id text NOT NULL, employee_email text NOT NULL,
      employee_name text NOT NULL, happened timestamptz NOT NULL,
      risk_score double precision NOT NULL, source text NOT NULL,
      allowlisted boolean NOT NULL, high_prevalence boolean NOT NULL)`);
    await api.sql.query(
      `INSERT INTO ${TABLE} SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[],
         $5::timestamptz[], $6::float8[], $7::text[], $8::boolean[], $9::boolean[])`,
      [
        events.map((e) => e.id),
        events.map((e) => e.detection_id),
        events.map((e) => normalizeEmployeeEmail(e.employee_email)),
        events.map((e) => e.employee_name),
        events.map((e) => new Date(e.happened).toISOString()),
        events.map((e) => e.risk_score),
        events.map((e) => e.source),
        events.map((e) => e.allowlisted),
        events.map((e) => e.high_prevalence),
      ],
    );
    token = await api.token({ detection: 'read' });
  });

  afterAll(async () => {
    await api?.sql.query(`DROP TABLE IF EXISTS ${TABLE}`);
    await api?.stop();
  });

  async function idsFromApi(path: string, query: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const response: JsonResponse = await request('POST', `${api.url}${path}`, {
        token,
        json: { query, limit: 1000, cursor },
      });
      if (response.status !== 200) {
        throw new Error(`${response.status} for ${query}: ${JSON.stringify(response.body)}`);
      }
      ids.push(...response.body.items.map((e: { id: string }) => e.id));
      cursor = response.body.pagination.next_cursor;
    } while (cursor !== null);
    return ids;
  }

  async function idsFromSql(query: string, detectionId?: string): Promise<string[]> {
    const { where, params } = compileToSql(parseQuery(query));
    const all: SqlParam[] = [...params];
    let scope = '';
    if (detectionId !== undefined) {
      all.push(detectionId);
      scope = ` AND detection_id = $${all.length}`;
    }
    const result = await api.sql.query<{ id: string }>(
      `SELECT id FROM ${TABLE} WHERE ${where}${scope} ORDER BY happened DESC, id COLLATE "C" ASC`,
      all,
    );
    return result.rows.map((row) => row.id);
  }

  it(`returns the same events in the same order for ${QUERY_COUNT} random queries`, async () => {
    const pools: ValuePools = {
      id: [...events.slice(0, 60).map((e) => e.id), 'evt-', 'EVT-1', 'e_z', 'Z', 'évt-'],
      employee_email: [...EMAILS, 'USER7@corp.example', 'user699@corp.example', 'nobody@x.io'],
      source: [...SOURCES, 'OKTA', 'none'],
      risk_score: [...new Set(events.slice(0, 40).map((e) => e.risk_score))],
      happened: [...new Set(events.slice(0, 40).map((e) => e.happened))],
    };
    const cases = fc
      .sample(
        fc.tuple(
          queryOver(pools),
          fc.constantFrom(undefined, undefined, undefined, 'det-1', 'det-crowd'),
        ),
        {
          numRuns: QUERY_COUNT,
          seed,
        },
      )
      .map(([ast, detectionId]) => ({ query: printQuery(ast), detectionId }));
    let nonEmpty = 0;
    const mismatches = (
      await inBatches(cases, async ({ query, detectionId }) => {
        const path =
          detectionId === undefined
            ? '/api-key/v1/events'
            : `/api-key/v1/detections/${detectionId}/events`;
        const [fromApi, fromSql] = await Promise.all([
          idsFromApi(path, query),
          idsFromSql(query, detectionId),
        ]);
        if (fromSql.length > 0) nonEmpty += 1;
        const same =
          fromApi.length === fromSql.length && fromApi.every((id, i) => id === fromSql[i]);
        return same ? null : { query, detectionId, api: fromApi.length, sql: fromSql.length, seed };
      })
    ).filter((m) => m !== null);
    expect(mismatches.slice(0, 5)).toEqual([]);
    // The pools are the data's own values, so most queries select something.
    expect(nonEmpty).toBeGreaterThan(QUERY_COUNT / 3);
  });

  it('gives exact detection figures and affected users, as SQL counts them', async () => {
    for (const detectionId of ['det-0', 'det-1', 'det-2', 'det-crowd']) {
      const expected = (
        await api.sql.query<Record<string, unknown>>(
          `SELECT count(*)::int AS event_count, count(DISTINCT employee_email)::int AS user_count,
             min(happened) AS first_seen, max(happened) AS last_seen, max(risk_score) AS max_risk
           FROM ${TABLE} WHERE detection_id = $1`,
          [detectionId],
        )
      ).rows[0];
      const summary = await request('GET', `${api.url}/api-key/v1/detections/${detectionId}`, {
        token,
      });
      expect(summary.body).toMatchObject({
        event_count: expected.event_count,
        user_count: expected.user_count,
        first_seen: (expected.first_seen as Date).toISOString(),
        last_seen: (expected.last_seen as Date).toISOString(),
        max_risk_score: expected.max_risk,
      });

      const expectedUsers = (
        await api.sql.query<Record<string, unknown>>(
          `SELECT employee_email, count(*)::int AS event_count, max(risk_score) AS max_risk_score,
             max(happened) AS last_seen
           FROM ${TABLE} WHERE detection_id = $1
           GROUP BY employee_email ORDER BY employee_email COLLATE "C"`,
          [detectionId],
        )
      ).rows.map((row) => ({ ...row, last_seen: (row.last_seen as Date).toISOString() }));
      const listed: Record<string, unknown>[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `?limit=300&cursor=${cursor}` : '?limit=300';
        const page = await request(
          'GET',
          `${api.url}/api-key/v1/detections/${detectionId}/users${query}`,
          { token },
        );
        listed.push(
          ...page.body.items.map(
            ({ employee_name: _name, ...rest }: Record<string, unknown>) => rest,
          ),
        );
        cursor = page.body.pagination.next_cursor;
      } while (cursor !== null);
      expect(listed).toEqual(expectedUsers);
    }
  });
});
