import type { RunningApp } from '@vigil/config';
import { createApiTokenService, createPgSqlClient, type SqlClient } from '@vigil/control-plane';
import { startApi } from '../../apps/api/src/start-api';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { answerBeforeBody } from '../support/answer-before-body';
import { anEventInput } from '../support/factories';
import { request, type JsonResponse } from '../support/http-client';

jest.setTimeout(120_000);

const API_LIMIT = 5;
const INGEST_LIMIT = 4;

/**
 * The per-token budgets of the API and of ingest hold across instances (DESIGN.md §9): two of
 * each on one database, requests alternating between them, spend one budget.
 */
describe('per-token rate limits shared by every instance', () => {
  const env = {
    ...process.env,
    API_PORT: '0',
    INGEST_PORT: '0',
    API_RATE_LIMIT_PER_MINUTE: String(API_LIMIT),
    INGEST_RATE_LIMIT_PER_MINUTE: String(INGEST_LIMIT),
  };
  let apis: RunningApp[] = [];
  let ingests: RunningApp[] = [];
  let sql: SqlClient;

  beforeAll(async () => {
    apis = [await startApi(env), await startApi(env)];
    ingests = [await startIngest(env), await startIngest(env)];
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
  });

  afterAll(async () => {
    for (const app of [...apis, ...ingests]) await app.stop();
    await sql?.close();
  });

  const tokenWith = async (permissions: Record<string, 'read' | 'write'>) =>
    (await createApiTokenService(sql).createToken({ name: 'limits', permissions })).value;
  const query = (api: RunningApp, token: string) =>
    request('POST', `${api.url}/api-key/v1/events`, { token, json: { query: '' } });
  const ingestOne = (ingest: RunningApp, token: string) =>
    request('POST', `${ingest.url}/ingest/v1/detection-events`, {
      token,
      json: [anEventInput()],
    });
  const budgetOf = (response: JsonResponse) =>
    ['ratelimit-limit', 'ratelimit-remaining'].map((h) => response.headers.get(h)).join('/');

  it('lets a token make exactly its API budget in all, whichever instance each request hits', async () => {
    const token = await tokenWith({ detection: 'read' });
    const responses: JsonResponse[] = [];
    for (let i = 0; i < API_LIMIT + 3; i++) responses.push(await query(apis[i % 2], token));
    expect(responses.map((r) => r.status)).toEqual([
      ...Array<number>(API_LIMIT).fill(200),
      429,
      429,
      429,
    ]);
    expect(responses.slice(0, API_LIMIT).map(budgetOf)).toEqual([
      '5/4',
      '5/3',
      '5/2',
      '5/1',
      '5/0',
    ]);
    const refused = responses[API_LIMIT];
    expect(refused.body.error).toMatchObject({
      code: 'rate_limited',
      details: { limit: API_LIMIT },
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(budgetOf(refused)).toBe('5/0');
  });

  it('keeps a spent budget when an instance restarts', async () => {
    const token = await tokenWith({ detection: 'read' });
    for (let i = 0; i < API_LIMIT; i++) expect((await query(apis[i % 2], token)).status).toBe(200);
    await apis[0].stop();
    apis[0] = await startApi(env);
    expect((await query(apis[0], token)).status).toBe(429);
  });

  it('lets a token make exactly its ingest budget in all, and answers 429 like the API', async () => {
    const token = await tokenWith({ detection: 'write' });
    const responses: JsonResponse[] = [];
    for (let i = 0; i < INGEST_LIMIT + 2; i++) {
      responses.push(await ingestOne(ingests[i % 2], token));
    }
    expect(responses.map((r) => r.status)).toEqual([
      ...Array<number>(INGEST_LIMIT).fill(202),
      429,
      429,
    ]);
    expect(responses.slice(0, INGEST_LIMIT).map(budgetOf)).toEqual(['4/3', '4/2', '4/1', '4/0']);
    const refused = responses[INGEST_LIMIT];
    expect(refused.body.error).toMatchObject({
      code: 'rate_limited',
      details: { limit: INGEST_LIMIT, retry_after_seconds: expect.any(Number) },
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit-reset')).toBe(refused.headers.get('retry-after'));

    // A spent token is refused from its headers: a large body is not read first.
    const large = await answerBeforeBody(
      `${ingests[0].url}/ingest/v1/detection-events`,
      { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      4 * 1024 * 1024,
      { chunkBytes: 64 * 1024, chunkEveryMs: 50 },
    );
    expect(large.status).toBe(429);
    expect(large.bodyBytesSent).toBeLessThan(1024 * 1024);
  });

  it('keeps the API and ingest budgets of one token apart', async () => {
    const token = await tokenWith({ detection: 'write' });
    for (let i = 0; i < INGEST_LIMIT; i++) await ingestOne(ingests[i % 2], token);
    expect((await ingestOne(ingests[0], token)).status).toBe(429);
    const queried = await query(apis[1], token);
    expect([queried.status, budgetOf(queried)]).toEqual([200, '5/4']);
  });
});
