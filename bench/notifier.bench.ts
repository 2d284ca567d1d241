/**
 * Notifier webhook throughput against its baseline, raw HTTP POSTs of the same body from the
 * same process to the same local receiver with the same concurrency, in the same run. The
 * notifier figure covers the whole app: commands consumed from Kafka, deliveries rendered and
 * stored in Postgres, claimed, signed, POSTed and recorded.
 *
 *   npm run bench:notifier     (BENCH_DELIVERIES, BENCH_CONCURRENCY override the sizes;
 *                               BENCH_LOG_LEVEL=debug shows per-batch timings)
 *
 * The floor is a minimal notifier in the same process (bench/support/minimal-notifier.ts): the
 * same commands from Kafka, the same body, a minimal Postgres outbox, the same POSTs: what any
 * notifier with a durable outbox costs, so how much of the gap to raw POSTs is the product's.
 *
 * Three passes of each side (BENCH_PASSES), alternating; prints the median, the spread and the
 * load average. Needs the local servers (deploy/local/servers.sh). Removes its database and the
 * topics under its prefix.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client as PgClient } from 'pg';
import { createLogger } from '@vigil/config';
import {
  buildDetectionWebhookPayload,
  encodeNotificationCommand,
  type NotificationCommand,
  type WebhookDecision,
} from '@vigil/contracts';
import { SecretBox, WebhookProviderService, createPgSqlClient } from '@vigil/control-plane';
import { TopicCatalog, createKafkaClient } from '@vigil/kafka';
import { startNotifier } from '../apps/notifier/src/start-notifier';
import { loadAverage, medianAndSpread, passCount } from './support/bench-passes';
import { BENCH_SERVERS } from './support/bench-servers';
import { rawPost, startMinimalNotifier } from './support/minimal-notifier';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 5_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PROVIDERS = 10;
const ADMIN_URL = BENCH_SERVERS.postgresAdminUrl;
const KAFKA_BROKERS = BENCH_SERVERS.kafkaBrokers;
const APP_URL = 'https://vigil.example.com';

function decision(i: number, providerId: string): WebhookDecision {
  const decidedAt = Date.now();
  return {
    kind: 'webhook',
    channel: 'webhook',
    notificationId: randomUUID(),
    detectionId: `det-${i % 200}`,
    detectionName: `Detection ${i % 200}`,
    previousCount: i,
    currentCount: i + 3,
    since: decidedAt - 3_600_000,
    eventCount: 3,
    userCount: 2,
    affectedUsers: [
      { email: 'ada@example.com', name: 'Ada Lovelace' },
      { email: 'alan@example.com', name: 'Alan Turing' },
    ],
    decidedAt,
    events: [1, 2, 3].map((n) => ({
      id: `evt-${i}-${n}`,
      personName: 'Ada Lovelace',
      personEmail: 'ada@example.com',
      description: 'Sign-in from a new country',
      timestamp: decidedAt - n * 1000,
    })),
    maxRiskScore: 7.5,
    sources: ['okta'],
    truncatedCount: 0,
    providerIds: [providerId],
  };
}

/** A receiver that answers 204 at once and counts requests per path. */
async function startReceiver() {
  let count = 0;
  let onCount: (() => void) | null = null;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.writeHead(204).end();
      onCount?.();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get count() {
      return count;
    },
    reset() {
      count = 0;
    },
    until(target: number): Promise<void> {
      return new Promise((resolve) => {
        onCount = () => {
          if (count >= target) {
            onCount = null;
            resolve();
          }
        };
        onCount();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The baseline: the same number of POSTs of the same body, CONCURRENCY at a time, keep-alive. */
async function rawPosts(url: string, body: string, total: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const post = () => rawPost(agent, url, body);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        next += 1;
        await post();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return total / seconds;
}

async function main(): Promise<void> {
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const database = `vigil_bench_${runId}`;
  const databaseUrl = new URL(ADMIN_URL);
  databaseUrl.pathname = `/${database}`;
  const admin = new PgClient({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);

  const receiver = await startReceiver();
  // Webhook secrets are sealed at rest: the notifier and the enrolment share one key.
  const secretsKey = SecretBox.generateKey();
  const env = {
    ...process.env,
    OPS_PORT: process.env.OPS_PORT ?? '0',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
    DATABASE_URL: databaseUrl.toString(),
    DATABASE_POOL_SIZE: '20',
    KAFKA_BROKERS,
    SCHEMA_REGISTRY_URL: BENCH_SERVERS.schemaRegistryUrl,
    VIGIL_TOPIC_PREFIX: `bench-${runId}.`,
    VIGIL_TOPIC_PARTITIONS: '6',
    APP_URL,
    NOTIFIER_CONCURRENCY: String(CONCURRENCY),
    NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
    VIGIL_SECRETS_KEY: secretsKey.toString('base64'),
  };
  const notifier = await startNotifier(env);
  const sql = createPgSqlClient(databaseUrl.toString(), 2);
  const providers = new WebhookProviderService(sql, {
    policy: { allowPrivate: true, allowlist: [] },
    secrets: new SecretBox(secretsKey),
  });
  const providerIds: string[] = [];
  for (let p = 0; p < PROVIDERS; p++) {
    const { provider } = await providers.enroll({
      name: `Bench ${p}`,
      kind: 'custom',
      url: `${receiver.url}/hook-${p}`,
    });
    providerIds.push(provider.id);
  }

  const sampleBody = JSON.stringify(
    buildDetectionWebhookPayload(
      decision(0, providerIds[0]),
      { id: randomUUID(), recipientName: 'x' },
      APP_URL,
    ),
  );

  const kafka = createKafkaClient(
    { brokers: KAFKA_BROKERS.split(','), clientId: 'notifier-bench' },
    createLogger('notifier-bench', 'error'),
  );
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  const kafkaAdmin = kafka.admin();
  await producer.connect();
  await kafkaAdmin.connect();
  const topic = new TopicCatalog(env.VIGIL_TOPIC_PREFIX, 6).notificationCommands;
  // The floor reads the same commands from a topic of its own, with the same partitions.
  const floorTopic = `${env.VIGIL_TOPIC_PREFIX}floor.commands`;
  await kafkaAdmin.createTopics({ topics: [{ topic: floorTopic, numPartitions: 6 }] });
  const floor = await startMinimalNotifier({
    kafka,
    topic: floorTopic,
    databaseUrl: databaseUrl.toString(),
    concurrency: CONCURRENCY,
    appUrl: APP_URL,
    urlOf: (providerId) => `${receiver.url}/floor-${providerIds.indexOf(providerId)}`,
  });

  /** One pass: DELIVERIES new commands produced to `to`, until the receiver has them all. */
  const notifierPass = async (to = topic): Promise<number> => {
    const decisions = Array.from({ length: DELIVERIES }, (_, i) =>
      decision(i, providerIds[i % PROVIDERS]),
    );
    receiver.reset();
    const started = performance.now();
    const done = receiver.until(DELIVERIES);
    for (let i = 0; i < decisions.length; i += 500) {
      await producer.send({
        topic: to,
        acks: -1,
        messages: decisions.slice(i, i + 500).map((d) => ({
          key: d.detectionId,
          value: encodeNotificationCommand({
            version: 1,
            id: d.notificationId,
            emittedAt: Date.now(),
            decision: d,
          } satisfies NotificationCommand),
        })),
      });
    }
    await done;
    return DELIVERIES / ((performance.now() - started) / 1000);
  };

  try {
    // Warm-up of both paths (connections, JIT), then the passes, alternating sides so a machine
    // that grows busier during the run favours neither.
    await rawPosts(`${receiver.url}/raw`, sampleBody, 500);
    const baseline: number[] = [];
    const notifierRates: number[] = [];
    const floorRates: number[] = [];
    for (let pass = 0; pass < passCount(); pass++) {
      receiver.reset();
      baseline.push(await rawPosts(`${receiver.url}/raw`, sampleBody, DELIVERIES));
      // Floor and notifier in turn, so neither always follows the baseline.
      if (pass % 2 === 0) {
        notifierRates.push(await notifierPass());
        floorRates.push(await notifierPass(floorTopic));
      } else {
        floorRates.push(await notifierPass(floorTopic));
        notifierRates.push(await notifierPass());
      }
    }
    const ratios = notifierRates.map((rate, i) => rate / baseline[i]);
    const floorRatios = floorRates.map((rate, i) => rate / baseline[i]);

    console.log(
      `notifier webhook throughput, ${DELIVERIES} deliveries, concurrency ${CONCURRENCY}, ` +
        `${baseline.length} passes, median (spread); load average ${loadAverage()}`,
    );
    console.log(`  body size                           ${Buffer.byteLength(sampleBody)} bytes`);
    console.log(`  baseline raw HTTP POSTs             ${medianAndSpread(baseline)} /s`);
    console.log(
      `  notifier (Kafka → Postgres → POST)  ${medianAndSpread(notifierRates)} deliveries/s`,
    );
    console.log(
      `  ratio notifier / baseline           ${medianAndSpread(ratios, 3)} (target >= 0.5)`,
    );
    console.log(
      `  floor: minimal notifier             ${medianAndSpread(floorRates)} deliveries/s` +
        ` (Kafka → minimal outbox → POST, same process)`,
    );
    console.log(`  ratio floor / baseline              ${medianAndSpread(floorRatios, 3)}`);
    console.log(
      `  ratio notifier / floor              ${medianAndSpread(
        notifierRates.map((rate, i) => rate / floorRates[i]),
        3,
      )}`,
    );
  } finally {
    await producer.disconnect();
    await floor.stop();
    await notifier.stop();
    await sql.close();
    await receiver.close();
    // The run's topics go with it: every topic under its prefix.
    const topics = (await kafkaAdmin.listTopics()).filter((name) =>
      name.startsWith(env.VIGIL_TOPIC_PREFIX),
    );
    if (topics.length > 0) await kafkaAdmin.deleteTopics({ topics });
    await kafkaAdmin.disconnect();
    // Closed connections finish terminating before the database is dropped.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await admin.query(`DROP DATABASE "${database}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
