/**
 * Stream-processor memory under a long load: N events over D detections go to the input topic
 * in L equal loads; the processor, built (npm run build), runs in a node process of its own
 * throughout, and after each
 * load is consumed (and a few quiet seconds) its resident set and used heap are read from its own
 * /metrics. The baseline is the same process idle, before the first event. The target is an
 * absolute bound (≤ 400 MB resident) and a flat line once warm: the growth from the second load
 * to the last is printed too. Then the processor is restarted and one more event per detection
 * sent, so every window is restored from the changelog: what the restored state holds.
 *
 *   npm run bench:processor-memory     (BENCH_EVENTS 1,700,000, BENCH_DETECTIONS 800,
 *                                       BENCH_LOADS 4 override the sizes)
 *
 * Needs the local servers (deploy/local/servers.sh). Uses a database, topic prefix and subjects
 * of its own and removes them afterwards.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import type { DetectionEventRecord } from '@vigil/contracts';
import { createPgSqlClient, runMigrations } from '@vigil/control-plane';
import {
  AvroCodec,
  ContractPublisher,
  TopicCatalog,
  ensureTopics,
  registerContracts,
  stopRequestQueueSpin,
} from '@vigil/kafka';
import { benchEventRecord } from './support/bench-event-record';
import { loadAverage } from './support/bench-passes';
import { metricSum } from './support/metric-sum';
import { startBenchProcess } from './support/bench-process';
import { removeBenchArtifacts } from './support/remove-bench-artifacts';
import { BENCH_SERVERS } from './support/bench-servers';
import { saveHeaviestOutputSettings } from './support/save-heaviest-output-settings';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_700_000);
const DETECTIONS = Number(process.env.BENCH_DETECTIONS ?? 800);
const LOADS = Number(process.env.BENCH_LOADS ?? 4);
const PARTITIONS = 6;
const QUIET_MS = 3_000;
const BROKERS = BENCH_SERVERS.kafkaBrokers;
const REGISTRY = BENCH_SERVERS.schemaRegistryUrl;
const ADMIN_DB = BENCH_SERVERS.postgresAdminUrl;
const runId = randomUUID().slice(0, 8);
const prefix = `bench-${runId}-memory.`;
// The baselines' clients as the apps' own: without kafkajs's idle timer loop.
stopRequestQueueSpin();
const kafka = new Kafka({ brokers: BROKERS.split(','), logLevel: logLevel.NOTHING });

const eventRecord = (n: number) => benchEventRecord(runId, n, DETECTIONS);

async function produce(publisher: ContractPublisher, from: number, to: number): Promise<void> {
  const chunk = 2_000;
  for (let start = from; start < to; start += chunk) {
    const records: DetectionEventRecord[] = [];
    for (let n = start; n < Math.min(to, start + chunk); n++) records.push(eventRecord(n));
    await publisher.publishDetectionEvents(records);
  }
}

interface Sample {
  rssBytes: number;
  heapBytes: number;
  consumed: number;
}

async function sample(opsUrl: string, inputTopic: string): Promise<Sample> {
  const page = await (await fetch(`${opsUrl}/metrics`)).text();
  if (!page.includes('vigil_process_resident_memory_bytes{')) {
    throw new Error('the processor serves no vigil_process_resident_memory_bytes');
  }
  return {
    rssBytes: metricSum(page, 'vigil_process_resident_memory_bytes'),
    heapBytes: metricSum(page, 'vigil_nodejs_heap_size_used_bytes'),
    consumed: metricSum(page, 'vigil_consumer_records_total', `topic="${inputTopic}"`),
  };
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`.padStart(9);

async function main(): Promise<void> {
  const database = `vigil_bench_${runId}`;
  const adminDb = new Client({ connectionString: ADMIN_DB });
  await adminDb.connect();
  await adminDb.query(`CREATE DATABASE "${database}"`);
  const databaseUrl = new URL(ADMIN_DB);
  databaseUrl.pathname = `/${database}`;
  const sql = createPgSqlClient(databaseUrl.toString(), 2);
  const topics = new TopicCatalog(prefix, PARTITIONS);
  const codec = new AvroCodec(REGISTRY);
  const publisher = new ContractPublisher(kafka, codec, topics);
  let processor: Awaited<ReturnType<typeof startBenchProcess>> | null = null;
  try {
    await runMigrations(sql);
    await saveHeaviestOutputSettings(sql);
    await ensureTopics(kafka, topics.all());
    await registerContracts(codec, topics);
    await publisher.connect();

    // Built and run as deployed: through ts-node the compiler alone would hold more than the
    // target.
    execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
    const startProcessor = () =>
      startBenchProcess({
        script: 'dist/apps/stream-processor/src/main.js',
        env: {
          ...process.env,
          KAFKA_BROKERS: BROKERS,
          SCHEMA_REGISTRY_URL: REGISTRY,
          DATABASE_URL: databaseUrl.toString(),
          VIGIL_TOPIC_PREFIX: prefix,
          VIGIL_TOPIC_PARTITIONS: String(PARTITIONS),
          LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
        },
        portVariable: 'OPS_PORT',
        probePath: '/livez',
        probeMethod: 'GET',
      });
    processor = await startProcessor();
    console.log(
      `stream-processor memory: ${EVENTS} events over ${DETECTIONS} detections in ${LOADS} loads, ` +
        `${PARTITIONS} partitions, the processor in a process of its own; load average ` +
        loadAverage(),
    );
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    const idle = await sample(processor.url, topics.detectionEvents);
    console.log(
      `  baseline, idle before the first event   rss ${mib(idle.rssBytes)}  heap ${mib(idle.heapBytes)}`,
    );

    /** Produces events from..to, waits until `consumed` of them are, and a quiet while. */
    const loadAndWait = async (from: number, to: number, consumed: number, url: string) => {
      const started = Date.now();
      await produce(publisher, from, to);
      let now = await sample(url, topics.detectionEvents);
      while (now.consumed < consumed) {
        if (Date.now() - started > 30 * 60_000) throw new Error(`events up to ${to} not consumed`);
        await new Promise((resolve) => setTimeout(resolve, 500));
        now = await sample(url, topics.detectionEvents);
      }
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
      return sample(url, topics.detectionEvents);
    };

    const samples: Sample[] = [];
    const perLoad = Math.ceil(EVENTS / LOADS);
    for (let load = 0; load < LOADS; load++) {
      const to = Math.min(EVENTS, (load + 1) * perLoad);
      const now = await loadAndWait(load * perLoad, to, to, processor.url);
      samples.push(now);
      console.log(
        `  after ${String(to).padStart(9)} events (load ${load + 1})  rss ${mib(now.rssBytes)}  ` +
          `heap ${mib(now.heapBytes)}  (rss / idle ${(now.rssBytes / idle.rssBytes).toFixed(2)})`,
      );
    }
    const last = samples[samples.length - 1];
    const warm = samples[Math.min(1, samples.length - 1)];
    const peak = Math.max(...samples.map((s) => s.rssBytes));
    console.log(
      `  rss at the end ${mib(last.rssBytes).trim()}, peak ${mib(peak).trim()} (target <= 400 MiB); ` +
        `growth from load ${Math.min(2, samples.length)} to the last ` +
        `${((last.rssBytes - warm.rssBytes) / 1024 / 1024).toFixed(0)} MiB (target: flat)`,
    );

    // A restart restores every window from the changelog (on each partition's first batch):
    // one more event per detection makes it, and shows what the restored state holds.
    await processor.stop();
    const restarted = Date.now();
    processor = await startProcessor();
    const restored = await loadAndWait(EVENTS, EVENTS + DETECTIONS, DETECTIONS, processor.url);
    console.log(
      `  restarted, every window restored, then one event per detection: rss ` +
        `${mib(restored.rssBytes).trim()}  heap ${mib(restored.heapBytes).trim()}  ` +
        `(${((Date.now() - restarted) / 1000).toFixed(1)} s from start to the last one decided)`,
    );
  } finally {
    await processor?.stop();
    await publisher.disconnect().catch(() => undefined);
    await sql.close();
    await adminDb.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await adminDb.end();
    await removeBenchArtifacts({ kafka, topicPrefix: prefix, registryUrl: REGISTRY });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
