/**
 * Event-to-webhook latency of the whole pipeline against its baseline, measured in the same
 * run. Events go one per request to POST /ingest/v1/detection-events at a steady rate over D
 * detections (Immediate mode, one webhook provider on a local receiver); an event's latency is
 * from the start of its ingest request to the arrival of the webhook that reports it. The path:
 * ingest → Kafka → stream processor (one transaction per micro-batch) → notification command →
 * notifier (delivery row in Postgres, claimed, signed) → HTTP POST. The baseline is the raw
 * Kafka leg alone: a kafkajs producer (idempotent, acks all, as the ingest app) to a
 * read-committed kafkajs consumer, same rate, same keys, same partition count.
 *
 *   npm run bench:latency        (BENCH_RATE events/s, BENCH_SECONDS, BENCH_DETECTIONS override)
 *
 * Needs the local servers (deploy/local/servers.sh). Uses a database, topic prefix, index
 * prefix and subjects of its own and removes them afterwards.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type IntervalHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import { Client as PgClient } from 'pg';
import type { RunningApp } from '@vigil/config';
import { decodeNotificationCommands } from '@vigil/contracts';
import {
  SecretBox,
  SqlNotificationSettingsStore,
  WebhookProviderService,
  createApiTokenService,
  createPgSqlClient,
  runMigrations,
} from '@vigil/control-plane';
import { TopicCatalog, stopRequestQueueSpin } from '@vigil/kafka';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import { startIndexer } from '../apps/indexer/src/start-indexer';
import { startIngest } from '../apps/ingest/src/start-ingest';
import { startNotifier } from '../apps/notifier/src/start-notifier';
import { startStreamProcessor } from '../apps/stream-processor/src/start-stream-processor';
import { removeBenchArtifacts } from './support/remove-bench-artifacts';
import { BENCH_SERVERS } from './support/bench-servers';

const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const DETECTIONS = Number(process.env.BENCH_DETECTIONS ?? 50);
const WARM_UP_SECONDS = 5;
const PARTITIONS = 6;
const DRAIN_TIMEOUT_MS = 60_000;
const ADMIN_URL = BENCH_SERVERS.postgresAdminUrl;
const BROKERS = BENCH_SERVERS.kafkaBrokers;
const REGISTRY = BENCH_SERVERS.schemaRegistryUrl;
const ELASTICSEARCH = BENCH_SERVERS.elasticsearchUrl;

const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const topicPrefix = `bench-${runId}.`;
const indexPrefix = `bench-${runId}-`;
// The baselines' clients as the apps' own: without kafkajs's idle timer loop.
stopRequestQueueSpin();
const kafka = new Kafka({ brokers: BROKERS.split(','), logLevel: logLevel.NOTHING });

/** Send time and arrival time of each event, by id, on the monotonic clock. */
class LatencyLog {
  private readonly sent = new Map<string, number>();
  private readonly latencies = new Map<string, number>();

  sending(id: string): void {
    this.sent.set(id, performance.now());
  }

  arrived(id: string): void {
    const sentAt = this.sent.get(id);
    if (sentAt !== undefined && !this.latencies.has(id)) {
      this.latencies.set(id, performance.now() - sentAt);
    }
  }

  get pending(): number {
    return this.sent.size - this.latencies.size;
  }

  async drained(timeoutMs = DRAIN_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  summary() {
    return summaryOf([...this.latencies.values()], this.pending);
  }

  /** Per event seen by both, the time from its arrival in `earlier` to its arrival here. */
  since(earlier: LatencyLog) {
    const hops: number[] = [];
    for (const [id, latency] of this.latencies) {
      const before = earlier.latencies.get(id);
      if (before !== undefined) hops.push(latency - before);
    }
    return summaryOf(hops, this.sent.size - hops.length);
  }
}

function summaryOf(values: number[], missing: number) {
  const sorted = values.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return {
    count: sorted.length,
    missing,
    p50: at(0.5),
    p99: at(0.99),
    max: sorted[sorted.length - 1],
  };
}

/** Calls `send(i)` for i in [0, total) at a steady rate, without waiting for earlier calls. */
async function atSteadyRate(total: number, send: (i: number) => Promise<void>): Promise<void> {
  const interval = 1000 / RATE;
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = started + i * interval - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(send(i));
  }
  await Promise.all(inFlight);
}

function anEvent(phase: string, i: number) {
  return {
    id: `evt-${runId}-${phase}-${i}`,
    detection_id: `det-${runId}-${i % DETECTIONS}`,
    detection_name: 'Impossible travel',
    issue_type: 'impossible_travel',
    employee_email: `user${i % 7}@example.com`,
    employee_name: `User ${i % 7}`,
    asset_name: 'okta',
    happened: new Date().toISOString(),
    risk_score: 7.5,
    source: 'okta',
    high_prevalence: false,
    allowlisted: false,
  };
}

/** Records, per event id in metadata.events, when the webhook reporting it arrived. */
async function startReceiver(onEvent: (id: string) => void) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(204).end();
      const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        metadata?: { events: { id: string }[] };
      };
      for (const event of payload.metadata?.events ?? []) onEvent(event.id);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The raw Kafka leg: produce (as the ingest app does) → read-committed consumer. */
async function kafkaBaseline(): Promise<Summary> {
  const topic = `${topicPrefix}baseline`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({
    topics: [{ topic, numPartitions: PARTITIONS }],
    waitForLeaders: true,
  });
  await admin.disconnect();

  let log = new LatencyLog();
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const consumer = kafka.consumer({ groupId: `${topicPrefix}baseline`, readUncommitted: false });
  await producer.connect();
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      log.arrived((JSON.parse(String(message.value)) as { id: string }).id);
    },
  });

  const send = (phase: string) => async (i: number) => {
    const event = anEvent(phase, i);
    log.sending(event.id);
    await producer.send({
      topic,
      acks: -1,
      messages: [{ key: event.detection_id, value: JSON.stringify(event) }],
    });
  };
  // The warm-up also waits out the consumer group's first join.
  await atSteadyRate(WARM_UP_SECONDS * RATE, send('baseline-warm-up'));
  await log.drained();
  log = new LatencyLog();
  await atSteadyRate(SECONDS * RATE, send('baseline'));
  await log.drained();

  await consumer.disconnect();
  await producer.disconnect();
  return log.summary();
}

type Summary = ReturnType<LatencyLog['summary']>;

/**
 * The whole pipeline, and where its time goes: a read-committed observer of the command topic
 * splits each event's latency at the moment its webhook command became visible downstream.
 */
async function pipeline(databaseUrl: string): Promise<{
  webhook: Summary;
  command: Summary;
  delivery: Summary;
  loopDelay: IntervalHistogram;
  /** CPU time of the shared process per event over the measured phase (its drain included). */
  cpuMsPerEvent: number;
}> {
  let log = new LatencyLog();
  let commandLog = new LatencyLog();
  const receiver = await startReceiver((id) => log.arrived(id));
  const sql = createPgSqlClient(databaseUrl, 2);
  const apps: RunningApp[] = [];
  const observer = kafka.consumer({ groupId: `${topicPrefix}observer`, readUncommitted: false });
  try {
    await runMigrations(sql);
    // Webhook secrets are sealed at rest: the notifier and the enrolment share one key.
    const secretsKey = SecretBox.generateKey();
    const { provider } = await new WebhookProviderService(sql, {
      policy: { allowPrivate: true, allowlist: [] },
      secrets: new SecretBox(secretsKey),
    }).enroll({ name: 'Bench receiver', kind: 'custom', url: receiver.url });
    await new SqlNotificationSettingsStore(sql).saveGlobal({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      frequency: 'immediate',
      webhookEnabled: true,
      webhookProviderIds: [provider.id],
    });
    const token = (
      await createApiTokenService(sql).createToken({
        name: 'bench connector',
        permissions: { detection: 'write' },
      })
    ).value;

    const env = {
      ...process.env,
      OPS_PORT: process.env.OPS_PORT ?? '0',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: BROKERS,
      SCHEMA_REGISTRY_URL: REGISTRY,
      ELASTICSEARCH_URL: ELASTICSEARCH,
      VIGIL_TOPIC_PREFIX: topicPrefix,
      VIGIL_INDEX_PREFIX: indexPrefix,
      VIGIL_TOPIC_PARTITIONS: String(PARTITIONS),
      INGEST_PORT: '0',
      // One event per request at BENCH_RATE: above the default per-token budget.
      INGEST_RATE_LIMIT_PER_MINUTE: '1000000',
      NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
      VIGIL_SECRETS_KEY: secretsKey.toString('base64'),
    };
    apps.push(await startIndexer(env));
    apps.push(await startStreamProcessor(env));
    apps.push(await startNotifier(env));
    const ingest = await startIngest(env);
    apps.push(ingest);
    await observer.connect();
    await observer.subscribe({
      topic: new TopicCatalog(topicPrefix, PARTITIONS).notificationCommands,
      fromBeginning: true,
    });
    await observer.run({
      eachMessage: async ({ message }) => {
        const commands = decodeNotificationCommands(message.value);
        if (typeof commands === 'string') return;
        for (const { decision } of commands) {
          if (decision.kind !== 'webhook') continue;
          for (const event of decision.events) commandLog.arrived(event.id);
        }
      },
    });

    const send = (phase: string) => async (i: number) => {
      const event = anEvent(phase, i);
      log.sending(event.id);
      commandLog.sending(event.id);
      const response = await fetch(`${ingest.url}/ingest/v1/detection-events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify([event]),
      });
      await response.text();
      if (response.status !== 202) throw new Error(`ingest answered ${response.status}`);
    };
    // Warm-up: consumer groups joined, producers and connections open, code paths compiled.
    await atSteadyRate(WARM_UP_SECONDS * RATE, send('warm-up'));
    await log.drained();
    log = new LatencyLog();
    commandLog = new LatencyLog();
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const cpuBefore = process.cpuUsage();
    await atSteadyRate(SECONDS * RATE, send('measured'));
    await log.drained();
    await commandLog.drained(5_000);
    loopDelay.disable();
    const cpu = process.cpuUsage(cpuBefore);
    return {
      cpuMsPerEvent: (cpu.user + cpu.system) / 1000 / (SECONDS * RATE),
      webhook: log.summary(),
      command: commandLog.summary(),
      delivery: log.since(commandLog),
      loopDelay,
    };
  } finally {
    await observer.disconnect();
    for (const app of apps.reverse()) await app.stop();
    await sql.close();
    await receiver.close();
  }
}

async function main(): Promise<void> {
  const database = `vigil_bench_${runId}`;
  const databaseUrl = new URL(ADMIN_URL);
  databaseUrl.pathname = `/${database}`;
  const admin = new PgClient({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  try {
    console.log(
      `event-to-webhook latency: ${RATE} events/s for ${SECONDS} s over ${DETECTIONS} ` +
        `detections, ${PARTITIONS} partitions, Immediate mode, one webhook provider`,
    );
    const baseline = await kafkaBaseline();
    const measured = await pipeline(databaseUrl.toString());
    const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(10);
    const row = (name: string, s: Summary) =>
      console.log(
        `  ${name.padEnd(38)} p50 ${ms(s.p50)}  p99 ${ms(s.p99)}  max ${ms(s.max)}` +
          `  (${s.count} events${s.missing ? `, ${s.missing} never arrived` : ''})`,
      );
    row('baseline Kafka produce → consume', baseline);
    row('pipeline ingest request → webhook', measured.webhook);
    row('  of which ingest → command committed', measured.command);
    row('  and command committed → webhook', measured.delivery);
    // The apps share this process, as in the embedded mode: a stall of one delays them all. (Run
    // each in a process of its own, the figures came out the same: the tail is not this loop's.)
    const delay = (q: number) => ms(measured.loopDelay.percentile(q) / 1e6);
    console.log(
      `  event-loop delay of the shared process p50 ${delay(50)}  p99 ${delay(99)}  max ${ms(measured.loopDelay.max / 1e6)}`,
    );
    console.log(
      `  CPU of the shared process per event     ${ms(measured.cpuMsPerEvent)}` +
        ` (the apps and the bench's own client)`,
    );
    const ratio = (q: 'p50' | 'p99') => (measured.webhook[q] / baseline[q]).toFixed(1);
    console.log(
      `  ratio pipeline / baseline              p50 ${ratio('p50')}  p99 ${ratio('p99')}`,
    );
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await removeBenchArtifacts({
      kafka,
      topicPrefix,
      registryUrl: REGISTRY,
      elasticsearch: { url: ELASTICSEARCH, indexPrefix },
    });
    await admin.end();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
