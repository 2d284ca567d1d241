import type { RunningApp } from '@vigil/config';
import {
  createApiTokenService,
  createPgSqlClient,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { anEventInput, anInvestigationInput } from '../support/factories';
import { request, type JsonResponse } from '../support/http-client';
import {
  answerProblems,
  documentProblems,
  requestSchema,
  schemaViolations,
} from '../support/openapi-schema-check';

jest.setTimeout(60_000);

const EVENTS = '/ingest/v1/detection-events';
const INVESTIGATIONS = '/ingest/v1/investigations';
const MAX_RECORDS = 5;

/** Every answer the suite sees, with the request that got it, for the OpenAPI check. */
interface Recorded {
  method: string;
  path: string;
  sent: unknown;
  response: JsonResponse;
}

describe('ingest API /ingest/v1 and its OpenAPI document', () => {
  let apps: RunningApp[] = [];
  let ingest: string;
  let limited: string;
  let sql: SqlClient;
  let writer: string;
  let calm: string;
  let reader: string;
  let document: Record<string, any>;
  const recorded: Recorded[] = [];

  beforeAll(async () => {
    const env = {
      ...process.env,
      INGEST_PORT: '0',
      OPS_PORT: '0',
      INGEST_MAX_RECORDS: String(MAX_RECORDS),
      INGEST_MAX_BODY_BYTES: String(64 * 1024),
    };
    const main = await startIngest(env);
    const tight = await startIngest({ ...env, INGEST_RATE_LIMIT_PER_MINUTE: '2' });
    apps = [main, tight];
    ingest = main.url!;
    limited = tight.url!;
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    await runMigrations(sql);
    const tokens = createApiTokenService(sql);
    const token = async (name: string, level: 'read' | 'write') =>
      (await tokens.createToken({ name, permissions: { detection: level } })).value;
    writer = await token('connector', 'write');
    calm = await token('connector-limited', 'write');
    reader = await token('script', 'read');
    document = (await request('GET', `${ingest}/ingest/v1/openapi.json`)).body;
  });

  afterAll(async () => {
    for (const app of apps) await app.stop();
    await sql?.close();
  });

  async function post(
    path: string,
    options: { token?: string; json?: unknown; body?: string; contentType?: string },
    base = ingest,
  ) {
    const response = await request('POST', `${base}${path}`, options);
    recorded.push({ method: 'POST', path, sent: options.json, response });
    return response;
  }

  it('serves its document without a token, usable by a client generator', async () => {
    const response = await request('GET', `${ingest}/ingest/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.0.3');
    expect(documentProblems(response.body)).toEqual([]);
  });

  it('accepts batches as a JSON array, one JSON object, or NDJSON', async () => {
    const array = await post(EVENTS, { token: writer, json: [anEventInput(), anEventInput()] });
    expect(array.status).toBe(202);
    expect(array.body).toEqual({ accepted: 2, rejected: 0, errors: [] });
    const single = await post(EVENTS, { token: writer, json: anEventInput() });
    expect(single.body).toEqual({ accepted: 1, rejected: 0, errors: [] });
    const lines = [JSON.stringify(anEventInput()), '{not json'].join('\n');
    const ndjson = await post(EVENTS, {
      token: writer,
      body: lines,
      contentType: 'application/x-ndjson',
    });
    expect(ndjson.status).toBe(202);
    expect(ndjson.body.errors).toEqual([
      { index: 1, errors: [{ path: '(record)', message: 'line 2 is not valid JSON' }] },
    ]);
    const report = await post(INVESTIGATIONS, { token: writer, json: [anInvestigationInput()] });
    expect(report.status).toBe(202);
  });

  it('answers what it refuses with the documented errors', async () => {
    const malformed = await post(EVENTS, {
      token: writer,
      body: '[{"id": ',
      contentType: 'application/json',
    });
    expect(malformed.status).toBe(400);
    const noneValid = await post(EVENTS, {
      token: writer,
      json: [anEventInput({ happened: 'yesterday' })],
    });
    expect(noneValid.status).toBe(400);
    expect(noneValid.body.error.details.rejected[0].index).toBe(0);
    const tooMany = await post(EVENTS, {
      token: writer,
      json: Array.from({ length: MAX_RECORDS + 1 }, () => anEventInput()),
    });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error.details).toEqual({ max_records: MAX_RECORDS, records: 6 });
    const tooLarge = await post(EVENTS, {
      token: writer,
      json: [anEventInput({ description: 'x'.repeat(100 * 1024) })],
    });
    expect(tooLarge.status).toBe(413);
    const text = await post(EVENTS, { token: writer, body: 'hello', contentType: 'text/plain' });
    expect(text.status).toBe(415);
    expect((await post(INVESTIGATIONS, { json: [anInvestigationInput()] })).status).toBe(401);
    expect((await post(EVENTS, { token: 'vgk1-not-a-token', json: [] })).status).toBe(401);
    const readOnly = await post(EVENTS, { token: reader, json: [anEventInput()] });
    expect(readOnly.status).toBe(403);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await post(EVENTS, { token: calm, json: [anEventInput()] }, limited)).status);
    }
    expect(statuses).toEqual([202, 202, 429]);
  });

  it('describes every answer above: body schema, status and headers', () => {
    const { problems, covered } = answerProblems(document, recorded);
    expect(problems).toEqual([]);
    for (const status of [202, 400, 401, 403, 413, 415, 429]) {
      expect(covered).toContain(`POST ${EVENTS} → ${status}`);
    }
    expect(covered).toContain(`POST ${INVESTIGATIONS} → 202`);
    expect(covered).toContain(`POST ${INVESTIGATIONS} → 401`);
  });

  it('documents as valid every JSON batch it accepted whole', () => {
    const whole = recorded.filter(
      ({ response, sent }) =>
        sent !== undefined && response.status === 202 && response.body.rejected === 0,
    );
    expect(whole.length).toBeGreaterThan(0);
    for (const { method, path, sent } of whole) {
      const schema = requestSchema(document, path, method);
      expect(schemaViolations(document, schema, sent)).toEqual([]);
    }
  });
});
