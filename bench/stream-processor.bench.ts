/**
 * Stream processor throughput against its baseline, measured in the same run: N Avro events
 * over D detections go to a 1-partition and a 6-partition topic; the baseline is a bare kafkajs
 * consumer that only decodes the same records (read committed, like the processor), run before
 * and after the processor. A second baseline, the floor, decodes too and then writes the records
 * the processor wrote, in one transaction per batch: what writing the output costs on its own.
 * Also the heap held per 100,000 detection states.
 *
 *   npm run bench:processor            (servers from deploy/local/servers.sh must be running)
 *   BENCH_EVENTS=20000 BENCH_DETECTIONS=500 npm run bench:processor
 */
import { randomUUID } from 'node:crypto';
import { type Batch, Kafka, logLevel } from 'kafkajs';
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
import {
  DEFAULT_DETECTION_STATE_OPTIONS,
  applyEvents,
  type DetectionEvent,
  type DetectionState,
} from '@vigil/notification-policy';
import { startStreamProcessor } from '../apps/stream-processor/src/start-stream-processor';
import { unsealedWindowIds } from '../apps/stream-processor/src/detection-state-records';
import {
  HashedEventIdWindow,
  randomEventIdHashSeed,
} from '../apps/stream-processor/src/hashed-event-id-window';
import { benchEventRecord } from './support/bench-event-record';
import {
  ProcessorFloor,
  decodeAll,
  processorOutputs,
  recordsByPartition,
  type WrittenRecord,
} from './support/processor-floor';
import { reportKafkaStreamsPeer } from './support/kafka-streams-peer';
import { MinimalDetectionWork } from './support/minimal-detection-work';
import { partitionWorkCpu } from './support/partition-work-cpu';
import { loadAverage, median, medianAndSpread } from './support/bench-passes';
import {
  processorInstrumentCost,
  throughputWithAndWithoutMetrics,
  type MetricsSetting,
} from './support/metrics-overhead';
import { BENCH_SERVERS } from './support/bench-servers';
import { saveHeaviestOutputSettings } from './support/save-heaviest-output-settings';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const DETECTIONS = Number(process.env.BENCH_DETECTIONS ?? 2_000);
const BROKERS = BENCH_SERVERS.kafkaBrokers;
const REGISTRY = BENCH_SERVERS.schemaRegistryUrl;
const ADMIN_DB = BENCH_SERVERS.postgresAdminUrl;
const runId = randomUUID().slice(0, 8);

// The baselines' clients as the apps' own: without kafkajs's idle timer loop.
stopRequestQueueSpin();
const kafka = new Kafka({ brokers: BROKERS.split(','), logLevel: logLevel.NOTHING });

const eventRecord = (n: number) => benchEventRecord(runId, n, DETECTIONS);

async function produce(topics: TopicCatalog, codec: AvroCodec): Promise<void> {
  const publisher = new ContractPublisher(kafka, codec, topics);
  await publisher.connect();
  const chunk = 2_000;
  for (let from = 0; from < EVENTS; from += chunk) {
    const records: DetectionEventRecord[] = [];
    for (let n = from; n < Math.min(EVENTS, from + chunk); n++) records.push(eventRecord(n));
    await publisher.publishDetectionEvents(records);
  }
  await publisher.disconnect();
}

interface Rate {
  /** From the first batch to the last one done: the steady-state rate. */
  steady: number;
  /** From start (group join, restore...) to the last one done. */
  overall: number;
  /** CPU time of this process per event, start-up included (the processor runs in it alone). */
  cpuMicrosPerEvent?: number;
  /** The mean time of one batch, its decode, process and commit steps together. */
  batchMs?: number;
}

/**
 * Reads every event of the input topic from the start, read committed, handing each batch to
 * `handle`: the rate from the start, and from the first batch to the last event handled.
 */
async function rateOfReadingAll(
  topics: TopicCatalog,
  groupId: string,
  run: { autoCommit?: boolean; partitionsConsumedConcurrently: number },
  handle: (batch: Batch) => Promise<void>,
): Promise<Rate> {
  const consumer = kafka.consumer({
    groupId,
    readUncommitted: false,
    maxBytesPerPartition: 4 * 1024 * 1024,
    maxBytes: 16 * 1024 * 1024,
  });
  let seen = 0;
  let firstBatchAt = 0;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const started = Date.now();
  await consumer.connect();
  await consumer.subscribe({ topic: topics.detectionEvents, fromBeginning: true });
  await consumer.run({
    ...run,
    eachBatch: async ({ batch }) => {
      firstBatchAt ||= Date.now();
      await handle(batch);
      seen += batch.messages.length;
      if (seen >= EVENTS) finish();
    },
  });
  await done;
  const ended = Date.now();
  await consumer.disconnect();
  return { steady: rate(ended - firstBatchAt), overall: rate(ended - started) };
}

/** Baseline: the same records, read committed and Avro-decoded, nothing else. */
function rawDecodeRate(topics: TopicCatalog, codec: AvroCodec): Promise<Rate> {
  return rateOfReadingAll(
    topics,
    `bench-raw-${randomUUID()}`,
    { partitionsConsumedConcurrently: 6 },
    async (batch) => {
      await decodeAll(codec, batch);
    },
  );
}

const rate = (ms: number) => (EVENTS * 1000) / Math.max(1, ms);

async function medianRate(measure: () => Promise<Rate>, runs = 3): Promise<Rate> {
  const rates: Rate[] = [];
  for (let i = 0; i < runs; i++) rates.push(await measure());
  return {
    steady: median(rates.map((r) => r.steady)),
    overall: median(rates.map((r) => r.overall)),
  };
}

/**
 * The floor under any processor of this design (ProcessorFloor): decode, and write the records
 * the processor wrote, in one transaction per input batch with its offsets.
 */
async function transactionalCopyRate(
  topics: TopicCatalog,
  codec: AvroCodec,
  outputs: WrittenRecord[],
  work?: MinimalDetectionWork,
): Promise<Rate> {
  const groupId = `bench-copy-${randomUUID()}`;
  const floor = new ProcessorFloor(kafka, {
    codec,
    records: outputs,
    inputEventsByPartition: await recordsByPartition(kafka, topics.detectionEvents),
    topics,
    groupId,
    work: work && ((batch, values) => work.apply(batch.messages, values)),
  });
  try {
    return await rateOfReadingAll(
      topics,
      groupId,
      // The processor's default (PROCESSOR_PARTITION_CONCURRENCY).
      { autoCommit: false, partitionsConsumedConcurrently: 6 },
      (batch) => floor.handle(batch),
    );
  } finally {
    await floor.close();
  }
}

/** The processor, until its transactions committed every input offset. */
async function processorRate(
  prefix: string,
  partitions: number,
  databaseUrl: string,
  metrics: MetricsSetting = 'on',
): Promise<Rate> {
  const started = Date.now();
  const cpuBefore = process.cpuUsage();
  const app = await startStreamProcessor({
    ...process.env,
    OPS_PORT: '0',
    VIGIL_METRICS: metrics,
    KAFKA_BROKERS: BROKERS,
    SCHEMA_REGISTRY_URL: REGISTRY,
    DATABASE_URL: databaseUrl,
    VIGIL_TOPIC_PREFIX: prefix,
    VIGIL_TOPIC_PARTITIONS: String(partitions),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
  });
  while (app.metrics().records < EVENTS) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const cpu = process.cpuUsage(cpuBefore);
  const { firstBatchAt, lastCommitAt, transactions, outputs, stageMs } = app.metrics();
  await app.stop();
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `  processor: ${transactions} transactions, ${outputs} records written; in batches: ` +
      `decode ${seconds(stageMs.decode)}, process ${seconds(stageMs.process)}, ` +
      `commit ${seconds(stageMs.commit)} (summed over partitions)`,
  );
  return {
    steady: rate(lastCommitAt! - firstBatchAt!),
    overall: rate(lastCommitAt! - started),
    cpuMicrosPerEvent: (cpu.user + cpu.system) / EVENTS,
    batchMs: (stageMs.decode + stageMs.process + stageMs.commit) / Math.max(1, transactions),
  };
}

/** The heap and the typed arrays' buffers (held outside it) in use after a full collection. */
function memoryUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** Event `e` of detection `d`, as the processor folds it into the detection's state. */
function stateEvent(id: string, d: number, e: number): DetectionEvent {
  return {
    id,
    detectionId: `det-${d}`,
    detectionName: 'Impossible travel',
    personName: `User ${e % 3}`,
    personEmail: `user${e % 3}@example.com`,
    description: 'impossible travel on okta',
    timestamp: 1_700_000_000_000 + e,
    riskScore: 5,
    source: 'okta',
  };
}

/** Heap held by 100,000 detection states of 5 events each (3 users), as the processor keeps them. */
function stateMemoryPer100k(): number {
  const count = 100_000;
  const before = memoryUsed();
  const states: DetectionState[] = [];
  for (let d = 0; d < count; d++) {
    const events: DetectionEvent[] = [];
    for (let e = 0; e < 5; e++) {
      events.push(stateEvent(`evt-${d}-${e}`, d, e));
    }
    states.push(applyEvents(undefined, events, 0).state);
  }
  const after = memoryUsed();
  if (states.length !== count) throw new Error('unreachable');
  return after - before;
}

/**
 * Heap held by 100 detections that have each seen 10,000 distinct events (a full window at the
 * default PROCESSOR_DEDUP_WINDOW), built batch by batch as the processor builds them, keeping at
 * most `eventBufferLimit` event summaries each: their states, which keep as strings only the ids
 * past the last sealed segment, and the hashed windows the processor looks the ids up in.
 */
function fullWindowsMemory(eventBufferLimit: number): number {
  const detections = 100;
  const perDetection = 10_000;
  const batch = 1_000;
  const seed = randomEventIdHashSeed();
  const before = memoryUsed();
  const states: DetectionState[] = [];
  const windows: HashedEventIdWindow[] = [];
  for (let d = 0; d < detections; d++) {
    let state: DetectionState | undefined;
    const window = new HashedEventIdWindow(DEFAULT_DETECTION_STATE_OPTIONS.dedupWindowSize, seed);
    for (let from = 0; from < perDetection; from += batch) {
      const events: DetectionEvent[] = [];
      for (let e = from; e < from + batch; e++) {
        // Decoded from the wire, as the processor gets them: a flat string (a built-up one is a
        // tree of its parts, ten times the size).
        events.push(stateEvent(Buffer.from(`evt-${randomUUID()}`).toString(), d, e));
      }
      const applied = applyEvents(state, events, 0, { eventBufferLimit }, state && window);
      const ids = applied.state.recentEventIds;
      window.append(ids.slice(ids.length - Math.min(applied.added, ids.length)));
      state = unsealedWindowIds(applied.state);
    }
    states.push(state!);
    windows.push(window);
  }
  const after = memoryUsed();
  if (states.length !== detections || windows.some((w) => w.length !== perDetection)) {
    throw new Error('unreachable');
  }
  return after - before;
}

async function main(): Promise<void> {
  if (!(globalThis as { gc?: unknown }).gc) {
    console.warn('run with node --expose-gc for a stable memory figure');
  }
  const database = `vigil_bench_${runId}`;
  const adminDb = new Client({ connectionString: ADMIN_DB });
  await adminDb.connect();
  await adminDb.query(`CREATE DATABASE "${database}"`);
  const databaseUrl = new URL(ADMIN_DB);
  databaseUrl.pathname = `/${database}`;
  const sql = createPgSqlClient(databaseUrl.toString(), 2);
  const admin = kafka.admin();
  const created: string[] = [];
  try {
    await runMigrations(sql);
    await saveHeaviestOutputSettings(sql);

    console.log(`stream processor bench: ${EVENTS} events over ${DETECTIONS} detections`);
    let floorAtOnePartition = 0;
    for (const partitions of [1, 6]) {
      const prefix = `bench-${runId}-p${partitions}.`;
      const topics = new TopicCatalog(prefix, partitions);
      await ensureTopics(kafka, topics.all());
      created.push(...topics.all().map((t) => t.name));
      const codec = new AvroCodec(REGISTRY);
      await registerContracts(codec, topics);
      await produce(topics, codec);

      // The baseline runs before and after the processor and counts as their mean, so neither
      // side gains from a warmer JIT or a quieter machine.
      // A raw pass over 100,000 events takes half a second: one pass is at the mercy of a GC
      // or the broker's own work, so each side of the processor takes the median of three.
      const rawBefore = await medianRate(() => rawDecodeRate(topics, codec));
      const processed = await processorRate(prefix, partitions, databaseUrl.toString());
      const outputs = await processorOutputs(kafka, topics);
      // The floor and the floor plus the least work of any processor (MinimalDetectionWork),
      // in alternate passes.
      const floorRates: number[] = [];
      const minimalRates: number[] = [];
      for (let pass = 0; pass < 3; pass++) {
        floorRates.push((await transactionalCopyRate(topics, codec, outputs)).steady);
        const work = new MinimalDetectionWork();
        minimalRates.push((await transactionalCopyRate(topics, codec, outputs, work)).steady);
      }
      const copied = { steady: median(floorRates) };
      if (partitions === 1) floorAtOnePartition = copied.steady;
      const minimal = median(minimalRates);
      const rawAfter = await medianRate(() => rawDecodeRate(topics, codec));
      const raw: Rate = {
        steady: (rawBefore.steady + rawAfter.steady) / 2,
        overall: (rawBefore.overall + rawAfter.overall) / 2,
      };
      console.log(
        `  raw decode steady state: ${rawBefore.steady.toFixed(0)} before, ` +
          `${rawAfter.steady.toFixed(0)} after the processor`,
      );
      const line = (what: 'steady' | 'overall') =>
        `processor ${processed[what].toFixed(0)} events/s, raw decode ${raw[what].toFixed(0)} ` +
        `events/s, ratio ${(processed[what] / raw[what]).toFixed(2)}`;
      console.log(`${partitions} partition(s), steady state: ${line('steady')} (target >= 0.60)`);
      console.log(`${partitions} partition(s), including start-up: ${line('overall')}`);
      const bytes = outputs.reduce((sum, o) => sum + o.key.length + (o.value?.length ?? 0), 0);
      console.log(
        `  floor (decode, then write the processor's ${outputs.length} records, ` +
          `${(bytes / 1024 / 1024).toFixed(1)} MB, in one transaction per batch): ` +
          `${medianAndSpread(floorRates)} events/s, ratio ${(copied.steady / raw.steady).toFixed(2)}`,
      );
      console.log(
        `  floor plus the least work of any processor (check, group, de-duplicate, count, ` +
          `serialise): ${medianAndSpread(minimalRates)} events/s, ` +
          `${(minimal / copied.steady).toFixed(2)} of the floor (load ${loadAverage()})`,
      );
      console.log(
        `${partitions} partition(s): processor / floor ${(processed.steady / copied.steady).toFixed(2)} ` +
          `(target >= 0.80); processor / (floor plus the least work) ` +
          `${(processed.steady / minimal).toFixed(2)}`,
      );
      // The same input on topics of their own per run: a processor resumes where its group
      // stopped, and restores the state its predecessor wrote.
      await throughputWithAndWithoutMetrics(
        `${partitions} partition(s), processor steady state:`,
        'events/s',
        async (metrics) => {
          const fresh = `bench-${runId}-p${partitions}-m${created.length}.`;
          const freshTopics = new TopicCatalog(fresh, partitions);
          await ensureTopics(kafka, freshTopics.all());
          created.push(...freshTopics.all().map((t) => t.name));
          await registerContracts(codec, freshTopics);
          await produce(freshTopics, codec);
          const rate = await processorRate(fresh, partitions, databaseUrl.toString(), metrics);
          return { figure: rate.steady, cpuMicrosPerUnit: rate.cpuMicrosPerEvent };
        },
      );
      const cost = await processorInstrumentCost(partitions);
      const batchMs = processed.batchMs!;
      console.log(
        `  instruments alone: ${cost.microsPerBatch.toFixed(2)} µs per batch ` +
          `(${((cost.microsPerBatch / 1000 / batchMs) * 100).toFixed(4)}% of a ${batchMs.toFixed(0)} ms batch), ` +
          `${cost.millisPerScrape.toFixed(2)} ms per scrape ` +
          `(${((cost.millisPerScrape / 15_000) * 100).toFixed(3)}% of one core at one scrape every 15 s)`,
      );
      // Second baseline: the same work as a Kafka Streams application (VIGIL_BENCH_PEERS=0 skips it).
      await reportKafkaStreamsPeer(kafka, {
        brokers: BROKERS,
        registryUrl: REGISTRY,
        inputTopic: topics.detectionEvents,
        partitions,
        events: EVENTS,
        prefix,
        vigilEventsPerSecond: processed.steady,
      });
    }

    // The 1-partition run reads batches of about 25,000 events (4 MB per partition fetch).
    const work = partitionWorkCpu(EVENTS, DETECTIONS, 25_000);
    const budget = 1e6 / (0.8 * floorAtOnePartition) - 1e6 / floorAtOnePartition;
    console.log(
      `partition work alone (in memory, no Kafka, batches of 25,000): processor ` +
        `${work.processorMicros.toFixed(2)} µs of CPU per event, the least work of any processor ` +
        `${work.leastWorkMicros.toFixed(2)} µs (medians of three alternate passes); at 0.8 of the ` +
        `floor's ${floorAtOnePartition.toFixed(0)} events/s (1 partition) a processor has ` +
        `${budget.toFixed(2)} µs per event beyond the floor's own work`,
    );

    const bytes = stateMemoryPer100k();
    console.log(
      `state memory: ${(bytes / 1024 / 1024).toFixed(1)} MiB per 100,000 detections ` +
        `(${(bytes / 100_000).toFixed(0)} bytes each, 5 events and 3 users per detection)`,
    );
    // One summary buffered: the states are then their ids (and a few bounded lists).
    const ids = fullWindowsMemory(1);
    const buffered = fullWindowsMemory(DEFAULT_DETECTION_STATE_OPTIONS.eventBufferLimit);
    console.log(
      `remembered ids: ${(ids / 1024 / 1024).toFixed(1)} MiB per 1,000,000 in full windows, ` +
        `hashed, with the states around them (${(ids / 1_000_000).toFixed(0)} bytes each, ids ` +
        `of 40 characters)`,
    );
    const perBuffer = (buffered - ids) / 100;
    console.log(
      `buffered event summaries: ${(perBuffer / 1024 / 1024).toFixed(1)} MiB per detection with a ` +
        `full buffer of ${DEFAULT_DETECTION_STATE_OPTIONS.eventBufferLimit} (summaries are kept ` +
        `until every enabled channel has reported them)`,
    );
  } finally {
    await sql.close();
    await adminDb.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await adminDb.end();
    await admin.connect();
    await admin.deleteTopics({ topics: created }).catch(() => undefined);
    await admin.disconnect();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
