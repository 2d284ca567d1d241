/**
 * Whole-pipeline throughput with the stream processor against the same pipeline without it,
 * measured in the same run: N events over D detections are posted to the ingest app in
 * requests of B events by C clients at once, and a pass ends when every event is indexed (the
 * indexer has consumed it, after Elasticsearch took it) and, with the processor, decided (the
 * processor has consumed it, in the transaction that wrote its state and commands). The apps
 * run built (npm run build), each in a process of its own as deployed, started afresh for each
 * pass on topics and indices of the pass's own; Immediate mode with both channels on, so every
 * recalculation writes commands (the heaviest output). Passes alternate sides.
 *
 * A third side puts the processor's floor in its place (support/processor-floor-process.ts):
 * a consumer that decodes the same events and writes, in one transaction per batch with its
 * offsets, the records the processor wrote in the pass before (the same bytes to the same
 * partitions, so the indexer reads and indexes the same state). It does less than any processor
 * of this output can, so floor / without is the most the with / without ratio can reach here.
 * With BENCH_FLOOR_OUTPUT=none the floor writes no record, only its offsets in a transaction per
 * batch: the most any exactly-once processor can reach, whatever it writes; with
 * BENCH_FLOOR_OUTPUT=commands it writes the processor's command records and no state: the most
 * any processor sending these notifications can reach (the indexer then indexes no detection,
 * so this floor is higher than any real one); with BENCH_FLOOR_OUTPUT=one-record one record of
 * 8 bytes per transaction: what writing any output in the transaction costs, its bytes aside;
 * BENCH_FLOOR_COMPRESSION=none writes the processor's records uncompressed (it writes gzip).
 *
 *   npm run bench:pipeline      (BENCH_EVENTS 150,000, BENCH_DETECTIONS 2,000, BENCH_BATCH 500,
 *                                BENCH_CLIENTS 4, BENCH_PASSES 3 override the sizes;
 *                                BENCH_PROCESSOR_NODE_FLAGS adds node flags to the processor's
 *                                process, a CPU profile say)
 *
 * Prints events/s of each side (median and spread), the ratios per set of passes, the load
 * average, and the CPU seconds each app used per 100,000 events. Needs the local servers
 * (deploy/local/servers.sh). Uses a database, topic and index prefixes and subjects of its own
 * and removes them afterwards.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Kafka, logLevel } from 'kafkajs';
import { Client as PgClient } from 'pg';
import { createApiTokenService, createPgSqlClient, runMigrations } from '@vigil/control-plane';
import { TopicCatalog } from '@vigil/kafka';
import { loadAverage, median, medianAndSpread, passCount } from './support/bench-passes';
import { startBenchProcess, type BenchProcess } from './support/bench-process';
import { cpuSecondsOfProcess } from './support/closed-loop';
import { metricSum } from './support/metric-sum';
import { removeBenchArtifacts } from './support/remove-bench-artifacts';
import { BENCH_SERVERS } from './support/bench-servers';
import { saveHeaviestOutputSettings } from './support/save-heaviest-output-settings';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 150_000);
const DETECTIONS = Number(process.env.BENCH_DETECTIONS ?? 2_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 500);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const PARTITIONS = 6;
const DRAIN_TIMEOUT_MS = 10 * 60_000;
const ADMIN_URL = BENCH_SERVERS.postgresAdminUrl;
const BROKERS = BENCH_SERVERS.kafkaBrokers;
const REGISTRY = BENCH_SERVERS.schemaRegistryUrl;
const ELASTICSEARCH = BENCH_SERVERS.elasticsearchUrl;

const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
/** Every topic, group, subject and index of the run starts with this. */
const runPrefix = `bench-${runId}-`;

/**
 * With the stream processor; without it; and with the processor's floor in its place
 * (processor-floor-process.ts: decode, and write what the processor wrote in the pass before).
 */
type Side = 'with' | 'without' | 'floor';

interface PassResult {
  eventsPerSecond: number;
  /** CPU seconds per app over the pass's load. */
  cpuSeconds: Record<string, number>;
}

/** The request bodies of one pass: EVENTS events of their own, BATCH to a request. */
function requestBodies(pass: string): string[] {
  const bodies: string[] = [];
  const happened = new Date().toISOString();
  for (let start = 0; start < EVENTS; start += BATCH) {
    const events = [];
    for (let i = start; i < Math.min(EVENTS, start + BATCH); i++) {
      events.push({
        id: `evt-${runId}-${pass}-${i}`,
        detection_id: `det-${runId}-${i % DETECTIONS}`,
        detection_name: 'Impossible travel',
        issue_type: 'impossible_travel',
        employee_email: `user${i % 7}@example.com`,
        employee_name: `User ${i % 7}`,
        asset_name: 'okta',
        happened,
        risk_score: 7.5,
        source: 'okta',
        high_prevalence: false,
        allowlisted: false,
      });
    }
    bodies.push(JSON.stringify(events));
  }
  return bodies;
}

/** How many records of `topic` the app behind `opsUrl` has consumed (and committed). */
async function consumed(opsUrl: string, topic: string): Promise<number> {
  const page = await (await fetch(`${opsUrl}/metrics`)).text();
  return metricSum(page, 'vigil_consumer_records_total', `topic="${topic}"`);
}

async function onePass(side: Side, pass: number, env: NodeJS.ProcessEnv, token: string) {
  const prefix = `${runPrefix}${side}${pass}.`;
  const eventsTopic = new TopicCatalog(prefix, PARTITIONS).detectionEvents;
  const passEnv = {
    ...env,
    VIGIL_TOPIC_PREFIX: prefix,
    VIGIL_INDEX_PREFIX: `${runPrefix}${side}${pass}-`,
  };
  const apps: Record<string, BenchProcess> = {};
  const ops = { portVariable: 'OPS_PORT', probePath: '/livez', probeMethod: 'GET' } as const;
  try {
    // One at a time: the first creates the topics and index templates the others use.
    apps.indexer = await startBenchProcess({
      script: 'dist/apps/indexer/src/main.js',
      env: passEnv,
      ...ops,
    });
    if (side === 'with') {
      apps.processor = await startBenchProcess({
        script: 'dist/apps/stream-processor/src/main.js',
        env: passEnv,
        nodeFlags: (process.env.BENCH_PROCESSOR_NODE_FLAGS ?? '').split(' ').filter(Boolean),
        ...ops,
      });
    }
    apps.ingest = await startBenchProcess({
      script: 'dist/apps/ingest/src/main.js',
      env: { ...passEnv, OPS_PORT: '0' },
      portVariable: 'INGEST_PORT',
      probePath: '/ingest/v1/detection-events',
    });
    if (side === 'floor') {
      apps.floor = await startBenchProcess({
        // Built like the apps: through ts-node it would carry the compiler, and node's domain
        // module that the REPL loads, which the apps do not.
        script: 'dist/bench/support/processor-floor-process.js',
        env: {
          ...passEnv,
          FLOOR_OUTPUT: process.env.BENCH_FLOOR_OUTPUT ?? 'processor',
          FLOOR_COMPRESSION: process.env.BENCH_FLOOR_COMPRESSION ?? 'gzip',
          FLOOR_SOURCE_PREFIX: `${runPrefix}with${pass}.`,
          FLOOR_EVENTS: String(EVENTS),
        },
        ...ops,
      });
    }
    const consumers = [apps.indexer, apps.processor, apps.floor].filter((app) => app !== undefined);
    const bodies = requestBodies(`${side}${pass}`);
    const cpuBefore = Object.fromEntries(
      Object.entries(apps).map(([name, app]) => [name, cpuSecondsOfProcess(app.pid)]),
    );

    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++];
          const response = await fetch(`${apps.ingest.url}/ingest/v1/detection-events`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body,
          });
          const text = await response.text();
          if (response.status !== 202) {
            throw new Error(`ingest answered ${response.status}: ${text.slice(0, 200)}`);
          }
        }
      }),
    );
    for (;;) {
      const counts = await Promise.all(consumers.map((app) => consumed(app.url, eventsTopic)));
      if (counts.every((count) => count >= EVENTS)) break;
      if (performance.now() - started > DRAIN_TIMEOUT_MS) {
        throw new Error(`${side} processor, pass ${pass + 1}: consumed ${counts.join(', ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuSeconds = Object.fromEntries(
      Object.entries(apps).map(([name, app]) => [
        name,
        cpuSecondsOfProcess(app.pid) - cpuBefore[name],
      ]),
    );
    return { eventsPerSecond: EVENTS / seconds, cpuSeconds } satisfies PassResult;
  } finally {
    for (const app of Object.values(apps).reverse()) await app.stop();
  }
}

async function main(): Promise<void> {
  const database = `vigil_bench_${runId}`;
  const admin = new PgClient({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  const databaseUrl = new URL(ADMIN_URL);
  databaseUrl.pathname = `/${database}`;
  const sql = createPgSqlClient(databaseUrl.toString(), 2);
  try {
    await runMigrations(sql);
    await saveHeaviestOutputSettings(sql);
    const token = (
      await createApiTokenService(sql).createToken({
        name: 'bench connector',
        permissions: { detection: 'write' },
      })
    ).value;
    const env = {
      ...process.env,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
      DATABASE_URL: databaseUrl.toString(),
      KAFKA_BROKERS: BROKERS,
      SCHEMA_REGISTRY_URL: REGISTRY,
      ELASTICSEARCH_URL: ELASTICSEARCH,
      VIGIL_TOPIC_PARTITIONS: String(PARTITIONS),
      INGEST_RATE_LIMIT_PER_MINUTE: '100000000',
    };
    // Built and run as deployed: through ts-node each app would carry the compiler too.
    execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });

    const results: Record<Side, PassResult[]> = { with: [], without: [], floor: [] };
    for (let pass = 0; pass < passCount(); pass++) {
      // Alternating which side goes first, so a machine growing busier favours neither; the
      // floor writes what the processor wrote, so it follows the pass with the processor.
      const order: Side[] =
        pass % 2 === 0 ? ['with', 'floor', 'without'] : ['without', 'with', 'floor'];
      for (const side of order) results[side].push(await onePass(side, pass, env, token));
    }

    const rates = (side: Side) => results[side].map((r) => r.eventsPerSecond);
    const ratios = (side: Side, baseline: Side) =>
      results[side].map((r, i) => r.eventsPerSecond / results[baseline][i].eventsPerSecond);
    const cpuPer100k = (side: Side, app: string) =>
      median(results[side].map((r) => r.cpuSeconds[app] ?? 0)) * (100_000 / EVENTS);
    console.log(
      `whole pipeline, HTTP ingest → every event indexed (and decided): ${EVENTS} events over ` +
        `${DETECTIONS} detections, ${BATCH} per request, ${CLIENTS} clients, ${PARTITIONS} ` +
        `partitions, ${results.with.length} passes a side, median (spread); load average ` +
        loadAverage(),
    );
    console.log(`  with the stream processor      ${medianAndSpread(rates('with'))} events/s`);
    console.log(`  without it (baseline)          ${medianAndSpread(rates('without'))} events/s`);
    const uncompressed = process.env.BENCH_FLOOR_COMPRESSION === 'none' ? ', uncompressed' : '';
    // What each floor writes, and whose most it is.
    const floors: Record<string, { writes: string; reach: string }> = {
      processor: {
        writes: `the processor's records${uncompressed}`,
        reach: 'a processor writing this output',
      },
      commands: {
        writes: `the processor's commands, no state${uncompressed}`,
        reach: 'any processor sending these notifications',
      },
      'one-record': {
        writes: 'one record of 8 bytes per transaction',
        reach: 'any exactly-once processor writing output',
      },
      none: { writes: 'offsets only', reach: 'any exactly-once processor' },
    };
    const { writes: floorWrites, reach: floorReach } =
      floors[process.env.BENCH_FLOOR_OUTPUT ?? 'processor'];
    console.log(
      `  with its floor in its place    ${medianAndSpread(rates('floor'))} events/s (writing ${floorWrites})`,
    );
    console.log(
      `  ratio with / without           ${medianAndSpread(ratios('with', 'without'), 2)} (target >= 0.85)`,
    );
    console.log(
      `  ratio floor / without          ${medianAndSpread(ratios('floor', 'without'), 2)} (the most ${floorReach} can reach)`,
    );
    console.log(`  ratio with / floor             ${medianAndSpread(ratios('with', 'floor'), 2)}`);
    for (const side of ['with', 'floor', 'without'] as const) {
      const apps = [
        'ingest',
        'indexer',
        ...(side === 'with' ? ['processor'] : side === 'floor' ? ['floor'] : []),
      ];
      console.log(
        `  CPU seconds per 100,000 events, ${side.padEnd(7)}  ` +
          apps.map((app) => `${app} ${cpuPer100k(side, app).toFixed(1)}`).join(', '),
      );
    }
  } finally {
    await sql.close();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
    await removeBenchArtifacts({
      kafka: new Kafka({ brokers: BROKERS.split(','), logLevel: logLevel.NOTHING }),
      topicPrefix: runPrefix,
      registryUrl: REGISTRY,
      elasticsearch: { url: ELASTICSEARCH, indexPrefix: runPrefix },
    });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
