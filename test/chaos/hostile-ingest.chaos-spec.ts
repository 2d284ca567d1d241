import type { Client } from '@elastic/elasticsearch';
import fc from 'fast-check';
import { Kafka, Partitioners, logLevel, type Producer } from 'kafkajs';
import type { RunningApp } from '@vigil/config';
import { createApiTokenService, createPgSqlClient, type SqlClient } from '@vigil/control-plane';
import {
  anEventRecord,
  anInvestigationRecord,
  dlqTopicOf,
  type DetectionEventRecord,
} from '@vigil/contracts';
import { AvroCodec, TopicCatalog, registerContracts } from '@vigil/kafka';
import { IndexNames, createElasticsearchClient } from '@vigil/search';
import { startIndexer } from '../../apps/indexer/src/start-indexer';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import {
  startStreamProcessor,
  type RunningStreamProcessor,
} from '../../apps/stream-processor/src/start-stream-processor';
import { eventually } from '../support/http-client';
import { readDeadLetters } from './support/dead-letter-reader';
import { contractProblems, type ApiErrorBody } from './support/api-error-shape';
import { chaosScale } from './support/chaos-scale';
import { hostileIngestRequest, type HostileIngestRequest } from './support/hostile-ingest-bodies';
import { RawHttpClient, type RawResponse } from './support/raw-http';

const CASES = chaosScale(2_400, 100_000);
const PARALLEL = 8;
const LIMITS = { maxBodyBytes: 64 * 1024, maxRecords: 50 };

jest.setTimeout(chaosScale(120_000, 3_600_000));

interface RecordRejection {
  index: unknown;
  errors: unknown;
}

/** Per-record errors must name a distinct record index inside the batch, with reasons. */
function rejectionProblems(rejections: unknown, records: number | null): string[] {
  if (!Array.isArray(rejections)) return ['per-record errors are not a list'];
  const problems: string[] = [];
  const seen = new Set<number>();
  for (const rejection of rejections as RecordRejection[]) {
    const { index, errors } = rejection;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) {
      problems.push(`record index ${String(index)} is not an index`);
      continue;
    }
    if (records !== null && index >= records) problems.push(`index ${index} beyond ${records}`);
    if (seen.has(index)) problems.push(`index ${index} reported twice`);
    seen.add(index);
    const reasons = errors as { path?: unknown; message?: unknown }[];
    if (!Array.isArray(reasons) || reasons.length === 0) problems.push(`no reason for ${index}`);
    else if (reasons.some((r) => typeof r.path !== 'string' || typeof r.message !== 'string'))
      problems.push(`a reason of ${index} has no path or message`);
  }
  return problems;
}

function ingestProblems(request: HostileIngestRequest, response: RawResponse): string[] {
  const { problems, body } = contractProblems(response);
  if (problems.length > 0) return problems;
  if (response.status === 202) {
    const batch = body as { accepted: number; rejected: number; errors: unknown };
    if (!(batch.accepted >= 1)) problems.push('a 202 accepted no record');
    if (!Array.isArray(batch.errors) || batch.rejected !== batch.errors.length)
      problems.push('rejected count does not match the errors');
    if (request.records !== null && batch.accepted + batch.rejected !== request.records)
      problems.push(`${batch.accepted}+${batch.rejected} records of ${request.records}`);
    problems.push(...rejectionProblems(batch.errors, request.records));
  } else if (response.status >= 200 && response.status < 300) {
    problems.push(`unexpected success status ${response.status}`);
  } else {
    const { error } = body as ApiErrorBody;
    if (error.details.rejected !== undefined)
      problems.push(...rejectionProblems(error.details.rejected, request.records));
    if (response.status === 401 && !response.headers['www-authenticate'])
      problems.push('401 without WWW-Authenticate');
  }
  return problems;
}

describe('ingest under hostile input', () => {
  let ingest: RunningApp;
  let client: RawHttpClient;
  let sql: SqlClient;
  let token: string;

  beforeAll(async () => {
    ingest = await startIngest({
      ...process.env,
      INGEST_PORT: '0',
      INGEST_MAX_BODY_BYTES: String(LIMITS.maxBodyBytes),
      INGEST_MAX_RECORDS: String(LIMITS.maxRecords),
      // Thousands of requests from one token in a minute: the budget is not what is fuzzed here.
      INGEST_RATE_LIMIT_PER_MINUTE: '1000000',
      LOG_LEVEL: 'fatal',
    });
    client = new RawHttpClient(ingest.url!);
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    const tokens = createApiTokenService(sql);
    token = (await tokens.createToken({ name: 'fuzzer', permissions: { detection: 'write' } }))
      .value;
    await tokens.drain();
  });

  afterAll(async () => {
    client?.close();
    await ingest?.stop();
    await sql?.close();
  });

  it(`answers ${CASES} hostile bodies with a 2xx or a documented 4xx, never a 5xx or a hang`, async () => {
    const started = Date.now();
    const statuses = new Map<number, number>();
    await fc.assert(
      // Several requests at once per run: the server sees concurrent hostile bodies too.
      fc.asyncProperty(
        fc.array(hostileIngestRequest(token, LIMITS), { minLength: PARALLEL, maxLength: PARALLEL }),
        async (requests) => {
          await Promise.all(
            requests.map(async (request) => {
              const response = await client.send(
                'POST',
                `/ingest/v1/${request.endpoint}`,
                request.headers,
                request.body,
              );
              statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
              const problems = ingestProblems(request, response);
              if (problems.length > 0) {
                throw new Error(
                  `${request.label} → ${response.status}: ${problems.join('; ')}\n${response.text.slice(0, 500)}`,
                );
              }
            }),
          );
        },
      ),
      { numRuns: CASES / PARALLEL, endOnFailure: true },
    );
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `hostile ingest: ${CASES} cases in ${seconds.toFixed(1)} s (${Math.round(CASES / seconds)}/s); statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`,
    );
    // The fuzz reached both sides of the contract, not only one kind of refusal.
    expect(statuses.get(202)).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(0);
    expect(statuses.get(413)).toBeGreaterThan(0);
    expect(statuses.get(415)).toBeGreaterThan(0);
  });

  it('survives a body cut off mid-stream and keeps serving', async () => {
    const { Socket } = await import('node:net');
    const url = new URL(ingest.url!);
    for (const declared of [100, 10_000, LIMITS.maxBodyBytes * 4]) {
      await new Promise<void>((resolve) => {
        const socket = new Socket();
        socket.connect(Number(url.port), url.hostname, () => {
          socket.write(
            `POST /ingest/v1/detection-events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
              `Content-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n[{"id":"evt-`,
          );
          setTimeout(() => socket.destroy(), 50);
        });
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
    }
    const response = await client.send(
      'POST',
      '/ingest/v1/detection-events',
      { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      Buffer.from('[]'),
    );
    expect(response.status).toBe(400);
  });
});

describe('records the pipeline must dead-letter', () => {
  const env = { ...process.env, LOG_LEVEL: process.env.CHAOS_LOG ?? 'fatal' };
  const topics = new TopicCatalog(process.env.VIGIL_TOPIC_PREFIX!, 6);
  const names = new IndexNames(process.env.VIGIL_INDEX_PREFIX!);
  let apps: RunningApp[] = [];
  let processor: RunningStreamProcessor;
  let codec: AvroCodec;
  let producer: Producer;
  let es: Client;

  beforeAll(async () => {
    processor = await startStreamProcessor(env);
    apps = [processor, await startIndexer(env)];
    codec = new AvroCodec(process.env.SCHEMA_REGISTRY_URL!);
    await registerContracts(codec, topics);
    const kafka = new Kafka({
      brokers: process.env.KAFKA_BROKERS!.split(','),
      logLevel: logLevel.NOTHING,
    });
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    es = createElasticsearchClient(process.env.ELASTICSEARCH_URL!);
  });

  afterAll(async () => {
    await producer?.disconnect();
    for (const app of apps) await app.stop();
    await es?.close();
  });

  async function indexed(model: 'events' | 'investigations', id: string) {
    const found = await es.search<Record<string, unknown>>({
      index: names.alias(model),
      query: { ids: { values: [id] } },
    });
    return found.hits.hits[0]?._source;
  }

  it('dead-letters every bad record with its reason while the records around it are indexed', async () => {
    const key = 'det-hostile';
    const event = (overrides: Partial<DetectionEventRecord> = {}) =>
      codec.encode(topics.detectionEvents, anEventRecord({ detection_id: key, ...overrides }));
    const valid = await event();
    const unknownSchema = (id: number) => {
      const copy = Buffer.from(valid);
      copy.writeUInt32BE(id, 1);
      return copy;
    };
    const badEvents: [string, Buffer][] = [
      ['random bytes', Buffer.from('\u0000\u00ff garbage \ud800', 'utf8')],
      ['empty', Buffer.alloc(0)],
      ['wrong magic byte', Buffer.concat([Buffer.from([1]), valid.subarray(1)])],
      ['unknown schema id', unknownSchema(0x7ffffff0)],
      ['unknown schema id 50300', unknownSchema(50_300)],
      ['truncated avro', valid.subarray(0, valid.length - 7)],
      ['happened in 1970', await event({ happened: 0 })],
      ['happened far in the future', await event({ happened: 8_640_000_000_000_000 })],
      ['empty id', await event({ id: '' })],
      ['bad email', await event({ employee_email: 'not-an-email' })],
      ['oversized', await event({ description: 'x'.repeat(900 * 1024) })],
    ];
    const before = anEventRecord({ detection_id: key });
    const after = anEventRecord({ detection_id: key });
    await producer.send({
      topic: topics.detectionEvents,
      messages: [
        { key, value: await codec.encode(topics.detectionEvents, before) },
        ...badEvents.map(([name, value]) => ({ key, value, headers: { case: name } })),
        { key, value: await codec.encode(topics.detectionEvents, after) },
      ],
    });

    const investigation = anInvestigationRecord();
    const badInvestigations: [string, Buffer][] = [
      [
        'updated_at beyond a Date',
        await codec.encode(topics.investigations, {
          ...investigation,
          updated_at: 8_640_000_000_000_001,
        }),
      ],
      [
        'investigation with an empty headline',
        await codec.encode(topics.investigations, { ...investigation, headline: ' ' }),
      ],
    ];
    await producer.send({
      topic: topics.investigations,
      messages: [
        ...badInvestigations.map(([name, value]) => ({
          key: investigation.id,
          value,
          headers: { case: name },
        })),
        { key: investigation.id, value: await codec.encode(topics.investigations, investigation) },
      ],
    });

    // Both consumers of the input topics (indexer and stream processor) dead-letter each bad record.
    const expectedCases = (cases: [string, Buffer][]) => cases.map(([name]) => name).sort();
    const lettersOf = async (topic: string, cases: [string, Buffer][]) => {
      const letters = await readDeadLetters(dlqTopicOf(topic), (seen) =>
        cases.every(([name]) => seen.filter((l) => l.caseName === name).length >= 2),
      );
      for (const letter of letters) expect(letter.reason).not.toBe('');
      const counts = new Map<string, number>();
      for (const l of letters) counts.set(l.caseName, (counts.get(l.caseName) ?? 0) + 1);
      return [...counts]
        .filter(([, n]) => n >= 2)
        .map(([name]) => name)
        .sort();
    };
    expect(await lettersOf(topics.detectionEvents, badEvents)).toEqual(expectedCases(badEvents));
    expect(await lettersOf(topics.investigations, badInvestigations)).toEqual(
      expectedCases(badInvestigations),
    );

    await eventually(() => indexed('events', before.id));
    await eventually(() => indexed('events', after.id));
    const report = await eventually(() => indexed('investigations', investigation.id));
    expect(report.updated_at).toBe(new Date(investigation.updated_at).toISOString());
    // The stream processor moved past every record too.
    const produced = 2 + badEvents.length + badInvestigations.length + 1;
    await eventually(async () => (processor.metrics().records >= produced ? true : undefined));
  });

  it('refuses an incompatible schema registration and loses nothing', async () => {
    const incompatible = {
      type: 'record',
      name: 'DetectionEvent',
      namespace: 'vigil',
      fields: [
        { name: 'id', type: 'int' },
        { name: 'required_new', type: 'string' },
      ],
    };
    await expect(codec.register(topics.detectionEvents, incompatible)).rejects.toThrow();
    const next = anEventRecord({ detection_id: 'det-hostile' });
    await producer.send({
      topic: topics.detectionEvents,
      messages: [{ key: 'det-hostile', value: await codec.encode(topics.detectionEvents, next) }],
    });
    await eventually(() => indexed('events', next.id));
  });
});
