import { Kafka, logLevel } from 'kafkajs';
import type { RunningApp } from '@vigil/config';
import {
  createApiTokenService,
  createPgSqlClient,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import { Topics, dlqTopicOf } from '@vigil/contracts';
import { startApi } from '../../apps/api/src/start-api';
import { startIndexer } from '../../apps/indexer/src/start-indexer';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { answerBeforeBody } from '../support/answer-before-body';
import { anEventInput, anInvestigationInput } from '../support/factories';
import { eventually, request } from '../support/http-client';
import { UNREADABLE_TARGET_REFUSAL, rawExchange } from '../support/raw-exchange';

jest.setTimeout(120_000);

describe('ingest → Kafka → indexer → Elasticsearch → query API', () => {
  const env = { ...process.env, API_PORT: '0', INGEST_PORT: '0' };
  let apps: RunningApp[] = [];
  let api: string;
  let ingest: string;
  let sql: SqlClient;
  let writeToken: string;
  let readToken: string;

  beforeAll(async () => {
    const indexer = await startIndexer(env);
    const ingestApp = await startIngest(env);
    const apiApp = await startApi(env);
    apps = [apiApp, ingestApp, indexer];
    api = apiApp.url!;
    ingest = ingestApp.url!;
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    await runMigrations(sql);
    const tokens = createApiTokenService(sql);
    writeToken = (
      await tokens.createToken({ name: 'connector', permissions: { detection: 'write' } })
    ).value;
    readToken = (await tokens.createToken({ name: 'script', permissions: { admin: 'read' } }))
      .value;
  });

  afterAll(async () => {
    for (const app of apps) await app.stop();
    await sql?.close();
  });

  async function findEvent(id: string) {
    const response = await request('POST', `${api}/api-key/v1/events`, {
      token: readToken,
      json: { query: `id = '${id}'` },
    });
    return response.body?.items?.length ? response : undefined;
  }

  it('returns an ingested event by its id, every field intact', async () => {
    const event = anEventInput({ detection_id: 'det-slice', happened: '2025-05-01T12:00:00.123Z' });
    const accepted = await request('POST', `${ingest}/ingest/v1/detection-events`, {
      token: writeToken,
      json: [event],
    });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ accepted: 1, rejected: 0, errors: [] });

    const found = await eventually(() => findEvent(event.id));
    expect(found.status).toBe(200);
    expect(found.body.pagination).toEqual({ count: 1, next_cursor: null });
    expect(found.body.items[0]).toEqual({
      id: event.id,
      issue_type: 'impossible_travel',
      employee_email: 'ada@example.com',
      employee_name: 'Ada Lovelace',
      asset_name: 'okta',
      happened: '2025-05-01T12:00:00.123Z',
      risk_score: 7.5,
      source: 'okta',
      high_prevalence: false,
      allowlisted: false,
      detection_id: 'det-slice',
      detection_name: 'Impossible travel',
      description: 'impossible travel on okta',
    });
  });

  it('accepts the good records of a mixed NDJSON batch and reports the bad ones by index', async () => {
    const good = anEventInput();
    const wrongType = anEventInput({ risk_score: 'high' });
    const body = [JSON.stringify(good), '{not json', JSON.stringify(wrongType)].join('\n');
    const response = await request('POST', `${ingest}/ingest/v1/detection-events`, {
      token: writeToken,
      body,
      contentType: 'application/x-ndjson',
    });
    expect(response.status).toBe(202);
    expect(response.body.accepted).toBe(1);
    expect(response.body.rejected).toBe(2);
    expect(response.body.errors).toEqual([
      { index: 1, errors: [{ path: '(record)', message: 'line 2 is not valid JSON' }] },
      { index: 2, errors: [expect.objectContaining({ path: 'risk_score' })] },
    ]);
    await eventually(() => findEvent(good.id));
  });

  it('answers malformed JSON with 400 invalid_request and a request id', async () => {
    const response = await request('POST', `${ingest}/ingest/v1/detection-events`, {
      token: writeToken,
      body: '[{"id": ',
      contentType: 'application/json',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_request');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers a request target no URL parser reads with a 400 that says so, and goes on serving', async () => {
    const answer = await rawExchange(
      ingest,
      'POST http://[::1:80/ingest/v1/detection-events HTTP/1.1\r\nHost: x\r\n' +
        'Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]',
    );
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.head).toMatch(/^x-request-id: \S+/im);
    expect(JSON.parse(answer.body)).toEqual(UNREADABLE_TARGET_REFUSAL);
    const after = await request('POST', `${ingest}/ingest/v1/detection-events`, {
      token: writeToken,
      json: [anEventInput({ detection_id: 'det-after-unreadable' })],
    });
    expect(after.status).toBe(202);
  });

  it('answers a batch with no valid record with 400 and every reason', async () => {
    const response = await request('POST', `${ingest}/ingest/v1/detection-events`, {
      token: writeToken,
      json: [anEventInput({ happened: 'yesterday' })],
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.rejected[0]).toEqual({
      index: 0,
      errors: [expect.objectContaining({ path: 'happened' })],
    });
  });

  it('refuses an oversized batch with 413 and a text body with 415', async () => {
    const big = await request('POST', `${ingest}/ingest/v1/detection-events`, {
      token: writeToken,
      body: JSON.stringify([{ padding: 'x'.repeat(6 * 1024 * 1024) }]),
      contentType: 'application/json',
    });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('payload_too_large');

    const text = await request('POST', `${ingest}/ingest/v1/detection-events`, {
      token: writeToken,
      body: 'hello',
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('unsupported_media_type');
  });

  it('refuses ingest without a token, and with a read-only token', async () => {
    const none = await request('POST', `${ingest}/ingest/v1/detection-events`, {
      json: [anEventInput()],
    });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const readOnly = await request('POST', `${ingest}/ingest/v1/detection-events`, {
      token: readToken,
      json: [anEventInput()],
    });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error.code).toBe('insufficient_scope');
  });

  it('refuses a 6 MB body without a token with 401 from its headers, before reading the body', async () => {
    const answer = await answerBeforeBody(
      `${ingest}/ingest/v1/detection-events`,
      { 'Content-Type': 'application/json' },
      6 * 1024 * 1024,
      { chunkBytes: 64 * 1024, chunkEveryMs: 50 },
    );
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).error.code).toBe('missing_token');
    expect(answer.headers['www-authenticate']).toMatch(/^Bearer/);
    // Answered while most of the body was still unsent: nothing waited for it.
    expect(answer.bodyBytesSent).toBeLessThan(1024 * 1024);
  });

  it('answers a body still trickling in at once when its token is not valid', async () => {
    const answer = await answerBeforeBody(
      `${ingest}/ingest/v1/investigations`,
      { 'Content-Type': 'application/x-ndjson', Authorization: 'Bearer vgk1-not-a-token' },
      100_000,
      { chunkBytes: 10, chunkEveryMs: 200, timeoutMs: 3_000 },
    );
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).error.code).toBe('invalid_token');
    expect(answer.ms).toBeLessThan(2_000);
  });

  it('sends an undecodable record to the DLQ with its reason and moves the partition on', async () => {
    const kafka = new Kafka({
      brokers: process.env.KAFKA_BROKERS!.split(','),
      logLevel: logLevel.NOTHING,
    });
    const topic = `${process.env.VIGIL_TOPIC_PREFIX}${Topics.detectionEvents}`;
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic,
      messages: [{ key: 'det-dlq', value: Buffer.from('garbage bytes') }],
    });
    await producer.disconnect();
    const after = anEventInput({ detection_id: 'det-dlq' });
    await request('POST', `${ingest}/ingest/v1/detection-events`, {
      token: writeToken,
      json: [after],
    });
    await eventually(() => findEvent(after.id));

    const consumer = kafka.consumer({ groupId: `dlq-reader-${Date.now()}` });
    await consumer.connect();
    await consumer.subscribe({ topic: dlqTopicOf(topic), fromBeginning: true });
    const letter = await new Promise<{ reason: string; value: string }>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) => {
          if (String(message.key) !== 'det-dlq') return;
          resolve({
            reason: String(message.headers?.['dlq.reason']),
            value: String(message.value),
          });
        },
      });
    });
    await consumer.disconnect();
    expect(letter).toEqual({
      value: 'garbage bytes',
      reason: 'not in the schema registry wire format',
    });
  });

  it('serves an ingested investigation report', async () => {
    const report = anInvestigationInput();
    const accepted = await request('POST', `${ingest}/ingest/v1/investigations`, {
      token: writeToken,
      json: [report],
    });
    expect(accepted.status).toBe(202);
    const found = await eventually(async () => {
      const response = await request('GET', `${api}/api-key/v1/investigations/${report.id}`, {
        token: readToken,
      });
      return response.status === 200 ? response : undefined;
    });
    expect(found.body).toMatchObject({
      id: report.id,
      status: 'completed',
      outcome: 'confirmed_risk',
      person: report.person,
      findings: report.findings,
      updated_at: '2025-05-02T09:30:00.000Z',
    });
  });
});
