import fc from 'fast-check';
import { anEventRecord, type DetectionEventRecord } from '@vigil/contracts';
import { parseQuery, printQuery } from '@vigil/query-language';
import {
  SqlEventReadModel,
  SqlReadModelWriter,
  ensureSqlReadModels,
  type AffectedUser,
  type EventSortKey,
} from '@vigil/search';
import { request, type JsonResponse } from '../support/http-client';
import { queryOver, type ValuePools } from '../support/query-arbitraries';
import { startQueryApiHarness, type QueryApiHarness } from '../support/query-api-harness';

// 2,000 queries, each paged through both models: a few minutes on a fast machine, up to twice
// that where every round trip costs more (a run on such a machine took over 240 s).
jest.setTimeout(600_000);

const EVENT_COUNT = 4_000;
const QUERY_COUNT = 2_000;
const CONCURRENCY = 8;

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

describe('query API on Elasticsearch against the SQL read model over the same events', () => {
  const seed = Number(process.env.VIGIL_DIFFERENTIAL_SEED ?? Date.now() % 2 ** 31);
  const events = generateEvents(seed);
  let api: QueryApiHarness;
  let token: string;
  let sqlModel: SqlEventReadModel;

  beforeAll(async () => {
    api = await startQueryApiHarness('query-api-diff', { API_RATE_LIMIT_PER_MINUTE: '1000000' });
    await api.index(events);
    // The same events in the SQL read model, on PostgreSQL, as the embedded mode keeps them.
    await ensureSqlReadModels(api.sql);
    expect(await new SqlReadModelWriter(api.sql).indexEvents(events, Date.now())).toEqual([]);
    sqlModel = new SqlEventReadModel(api.sql);
    token = await api.token({ detection: 'read' });
  });

  afterAll(async () => {
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

  /** Every page of the SQL read model, as the API pages it (1,000 at a time). */
  async function idsFromSql(query: string, detectionId?: string): Promise<string[]> {
    const ids: string[] = [];
    let after: EventSortKey | undefined;
    do {
      const page = await sqlModel.searchEvents({
        query: parseQuery(query),
        detectionId,
        limit: 1000,
        after,
      });
      ids.push(...page.items.map((e) => e.id));
      after = page.next ?? undefined;
    } while (after !== undefined);
    return ids;
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

  it('gives exact detection figures and affected users, as the SQL read model counts them', async () => {
    for (const detectionId of ['det-0', 'det-1', 'det-2', 'det-crowd']) {
      const summary = await request('GET', `${api.url}/api-key/v1/detections/${detectionId}`, {
        token,
      });
      expect(summary.body).toMatchObject({ ...(await sqlModel.getDetection(detectionId)) });

      const expectedUsers: AffectedUser[] = [];
      let after: string | undefined;
      do {
        const page = await sqlModel.listAffectedUsers({ detectionId, limit: 300, after });
        expectedUsers.push(...page.items);
        after = page.next ?? undefined;
      } while (after !== undefined);
      const listed: Record<string, unknown>[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `?limit=300&cursor=${cursor}` : '?limit=300';
        const page = await request(
          'GET',
          `${api.url}/api-key/v1/detections/${detectionId}/users${query}`,
          { token },
        );
        listed.push(...page.body.items);
        cursor = page.body.pagination.next_cursor;
      } while (cursor !== null);
      expect(listed).toEqual(expectedUsers);
    }
  });
});
