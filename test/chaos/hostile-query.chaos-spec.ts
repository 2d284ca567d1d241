import fc from 'fast-check';
import {
  QueryError,
  compileToElasticsearch,
  compileToSql,
  parseQuery,
} from '@vigil/query-language';
import { anEventRecord } from '@vigil/contracts';
import { startQueryApiHarness, type QueryApiHarness } from '../support/query-api-harness';
import type { ValuePools } from '../support/query-arbitraries';
import { contractProblems, type ApiErrorBody } from './support/api-error-shape';
import { chaosScale } from './support/chaos-scale';
import { hostileCursor, hostileEventsBody, hostileQueryText } from './support/hostile-queries';
import { RawHttpClient, type RawResponse } from './support/raw-http';

const API_CASES = chaosScale(1_600, 100_000);
const PURE_CASES = chaosScale(15_000, 500_000);
const PARALLEL = 8;

jest.setTimeout(chaosScale(120_000, 3_600_000));

const events = Array.from({ length: 20 }, (_, i) =>
  anEventRecord({
    detection_id: `det-${i % 3}`,
    employee_email: `user${i % 4}@example.com`,
    source: i % 2 ? 'okta' : 'github',
    risk_score: i / 2,
    allowlisted: i % 5 === 0,
  }),
);
const pools: ValuePools = {
  id: events.map((e) => e.id),
  employee_email: events.map((e) => e.employee_email),
  source: ['okta', 'github'],
  risk_score: events.map((e) => e.risk_score),
  happened: events.map((e) => e.happened),
};

interface HostileQueryRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** The query text when the body carries a string query: a 400 invalid_query must point into it. */
  query?: string;
}

const detectionId = fc.oneof(
  fc.constantFrom(
    'det-0',
    'det-1',
    'det-404',
    'a'.repeat(201),
    '..',
    '%00',
    '%2F',
    '%ZZ',
    '%F0%9F%98%80',
  ),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
);

const hostileRequest: fc.Arbitrary<HostileQueryRequest> = fc.oneof(
  {
    weight: 6,
    arbitrary: hostileEventsBody(pools).map((body) => ({
      method: 'POST' as const,
      path: '/api-key/v1/events',
      body,
    })),
  },
  {
    weight: 4,
    arbitrary: hostileQueryText(pools).map((query) => ({
      method: 'POST' as const,
      path: '/api-key/v1/events',
      body: JSON.stringify({ query }),
      query,
    })),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(detectionId, hostileEventsBody(pools)).map(([id, body]) => ({
      method: 'POST' as const,
      path: `/api-key/v1/detections/${id}/events`,
      body,
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        detectionId,
        fc.constantFrom('', '/users'),
        fc.option(hostileCursor),
        fc.option(fc.string()),
      )
      .map(([id, suffix, cursor, limit]) => {
        const params = new URLSearchParams();
        if (cursor !== null)
          params.set('cursor', typeof cursor === 'string' ? cursor : JSON.stringify(cursor));
        if (limit !== null) params.set('limit', limit);
        return {
          method: 'GET' as const,
          path: `/api-key/v1/detections/${id}${suffix}?${params.toString()}`,
        };
      }),
  },
  {
    weight: 1,
    arbitrary: detectionId.map((id) => ({
      method: 'GET' as const,
      path: `/api-key/v1/investigations/${id}`,
    })),
  },
);

function queryProblems(request: HostileQueryRequest, response: RawResponse): string[] {
  const { problems, body } = contractProblems(response);
  if (problems.length > 0) return problems;
  if (response.status !== 200 && response.status < 400) problems.push(`status ${response.status}`);
  if (response.status === 200 && request.path.endsWith('events')) {
    const page = body as { items?: unknown[]; pagination?: { count?: number } };
    if (!Array.isArray(page.items) || page.pagination?.count !== page.items.length)
      problems.push('a page whose count does not match its items');
  }
  if (response.status === 400) {
    const { error } = body as ApiErrorBody;
    if (error.code === 'invalid_query') {
      const { position, expected } = error.details as { position?: unknown; expected?: unknown };
      if (typeof position !== 'number' || !Number.isInteger(position) || position < 0)
        problems.push(`invalid_query without a position: ${JSON.stringify(error.details)}`);
      else if (request.query !== undefined && position > request.query.length)
        problems.push(`position ${position} beyond the query (${request.query.length})`);
      if (typeof expected !== 'string' || expected === '')
        problems.push('invalid_query without what was expected');
    }
  }
  return problems;
}

describe('query API under hostile input', () => {
  let harness: QueryApiHarness;
  let client: RawHttpClient;
  let token: string;

  beforeAll(async () => {
    harness = await startQueryApiHarness('hostile', {
      API_RATE_LIMIT_PER_MINUTE: '100000000',
      LOG_LEVEL: 'fatal',
    });
    await harness.index(events);
    token = await harness.token({ detection: 'read' });
    client = new RawHttpClient(harness.url);
  });

  afterAll(async () => {
    client?.close();
    await harness?.stop();
  });

  it(`answers ${API_CASES} hostile queries and bodies with a 200 or a documented 4xx`, async () => {
    const started = Date.now();
    const statuses = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileRequest, { minLength: PARALLEL, maxLength: PARALLEL }),
        async (requests) => {
          await Promise.all(
            requests.map(async (request) => {
              const response = await client.send(
                request.method,
                request.path,
                { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                request.body === undefined ? undefined : Buffer.from(request.body, 'utf8'),
              );
              const code = response.status >= 400 ? `${response.status}` : '200';
              statuses.set(code, (statuses.get(code) ?? 0) + 1);
              const problems = queryProblems(request, response);
              if (problems.length > 0) {
                throw new Error(
                  `${request.method} ${request.path} ${request.body?.slice(0, 300) ?? ''} → ${response.status}: ${problems.join('; ')}\n${response.text.slice(0, 500)}`,
                );
              }
            }),
          );
        },
      ),
      { numRuns: API_CASES / PARALLEL, endOnFailure: true },
    );
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `hostile query API: ${API_CASES} cases in ${seconds.toFixed(1)} s (${Math.round(API_CASES / seconds)}/s); statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`,
    );
    expect(statuses.get('200')).toBeGreaterThan(0);
    expect(statuses.get('400')).toBeGreaterThan(0);
  });

  it(`parses and compiles ${PURE_CASES} hostile query texts throwing only QueryError`, () => {
    const started = Date.now();
    let valid = 0;
    fc.assert(
      fc.property(hostileQueryText(pools), (text) => {
        let ast;
        try {
          ast = parseQuery(text);
        } catch (error) {
          if (!(error instanceof QueryError)) throw error;
          if (error.position < 0 || error.position > text.length || error.expected === '')
            throw new Error(`bad error details for ${JSON.stringify(text)}: ${error.message}`);
          return;
        }
        valid += 1;
        compileToElasticsearch(ast);
        compileToSql(ast);
      }),
      { numRuns: PURE_CASES },
    );
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `hostile query parser: ${PURE_CASES} cases (${valid} valid) in ${seconds.toFixed(1)} s (${Math.round(PURE_CASES / seconds)}/s)\n`,
    );
    expect(valid).toBeGreaterThan(0);
  });
});
