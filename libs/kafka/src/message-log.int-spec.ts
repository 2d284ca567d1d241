import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@vigil/config';
import { anEventRecord, dlqTopicOf, type DetectionEventRecord } from '@vigil/contracts';
import { createKafkaClient } from './kafka/create-kafka-client';
import { KafkaMessageLog } from './kafka/kafka-message-log';
import { openInProcessLog } from './in-process/open-in-process-log';
import type { BatchConsumer } from './port/batch-consumer';
import type { ProcessorObserver } from './port/consumer-observer';
import type { DeadLetterReason } from './port/dead-letter';
import { DecodeError } from './port/decode-error';
import type { DecodedRecord } from './port/decoded-record';
import type { MessageLog } from './port/message-log';
import type { PartitionHandler } from './port/partition-handler';
import type { PartitionProcessor } from './port/partition-processor';
import { TopicCatalog } from './port/topic-catalog';
import { registerContracts } from './register-contracts';

const logger = createLogger('message-log-contract', 'silent');
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-message-log-'));
let run = 0;

const adapters: [string, () => MessageLog][] = [
  [
    'kafka',
    () =>
      new KafkaMessageLog(
        createKafkaClient(
          {
            brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','),
            clientId: 'contract',
          },
          logger,
        ),
        process.env.SCHEMA_REGISTRY_URL ?? 'http://127.0.0.1:8081/apis/ccompat/v7',
      ),
  ],
  ['in-process', () => openInProcessLog(dataDir, logger)],
];

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** An observer that writes down what it is told. */
function recordingObserver() {
  const seen = {
    polls: 0,
    openSteps: 0,
    steps: 0,
    consumed: 0,
    deadLetters: [] as { reason: DeadLetterReason; records: number }[],
    committed: 0,
  };
  const observer: ProcessorObserver = {
    polled: () => void (seen.polls += 1),
    batchStarted: () => {
      seen.openSteps += 1;
      return () => {
        seen.openSteps -= 1;
        seen.steps += 1;
      };
    },
    consumed: (_topic, _partition, records) => void (seen.consumed += records),
    deadLettered: (_topic, _partition, reason, records) =>
      void seen.deadLetters.push({ reason, records }),
    batchCommitted: () => void (seen.committed += 1),
    transactionAborted: () => undefined,
  };
  return { seen, observer };
}

/** Resolves once `predicate` holds, polling. */
async function eventually(predicate: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A processor handler counting each detection's events; the count is its changelog state. */
function countingHandler(
  topics: TopicCatalog,
  partition: number,
  changelog: Map<string, Buffer>,
  failOn: Set<string>,
): PartitionHandler {
  const counts = new Map([...changelog].map(([k, v]) => [k, Number(v.toString())]));
  return {
    process(records: DecodedRecord[]) {
      const next = new Map(counts);
      for (const record of records) {
        const event = record.value as DetectionEventRecord;
        if (failOn.delete(event.id)) throw new Error('transient failure');
        next.set(event.detection_id, (next.get(event.detection_id) ?? 0) + 1);
      }
      const touched = [
        ...new Set(records.map((r) => (r.value as DetectionEventRecord).detection_id)),
      ];
      return {
        outputs: touched.flatMap((id) => [
          {
            topic: topics.detectionState,
            key: id,
            partition,
            value: Buffer.from(String(next.get(id))),
          },
          {
            topic: topics.notificationCommands,
            key: id,
            value: Buffer.from(`${id}=${next.get(id)}`),
          },
        ]),
        rejected: [],
        commit: () => {
          for (const [k, v] of next) counts.set(k, v);
        },
      };
    },
    punctuate: () => null,
  };
}

describe.each(adapters)('MessageLog contract (%s)', (name, openLog) => {
  let log: MessageLog;
  let topics: TopicCatalog;
  const running: BatchConsumer[] = [];

  beforeEach(async () => {
    run += 1;
    log = openLog();
    topics = new TopicCatalog(`${process.env.VIGIL_TOPIC_PREFIX ?? 'contract.'}${name}.${run}.`, 3);
    await log.ensureTopics(topics.all());
    await registerContracts(log.codec, topics);
  });

  afterEach(async () => {
    for (const consumer of running.splice(0)) await consumer.stop();
    await log.close();
  }, 60_000);

  const start = async <T extends BatchConsumer>(consumer: T): Promise<T> => {
    running.push(consumer);
    await consumer.start();
    return consumer;
  };

  const collect = async (topic: string, decode?: (value: Buffer | null) => unknown) => {
    const seen: DecodedRecord[] = [];
    await start(
      log.createDecodedBatchConsumer({
        groupId: `${topic}.reader`,
        topics: [topic],
        logger,
        decode,
        handler: async (records) => {
          seen.push(...records);
          return { rejected: [] };
        },
      }),
    );
    return seen;
  };

  it('delivers published records decoded, in order per detection', async () => {
    const publisher = log.createContractPublisher(topics);
    await publisher.connect();
    const events = [1, 2, 3].map((n) => anEventRecord({ detection_id: 'det-a', risk_score: n }));
    await publisher.publishDetectionEvents(events);
    const seen = await collect(topics.detectionEvents);
    await eventually(() => seen.length === 3);
    expect(seen.map((r) => r.value)).toEqual(events);
    expect(seen.map((r) => r.key?.toString())).toEqual(['det-a', 'det-a', 'det-a']);
    await publisher.disconnect();
  }, 60_000);

  it("publishes a full ingest request of one detection's events and dead-letters them all, past the broker's 1 MB per partition, in order", async () => {
    const publisher = log.createContractPublisher(topics);
    await publisher.connect();
    // INGEST_MAX_RECORDS events of one detection: one partition, ~2.5 MB of Avro.
    const events = Array.from({ length: 10_000 }, (_, n) =>
      anEventRecord({ id: `evt-big-${n}`, detection_id: 'det-big', description: 'd'.repeat(200) }),
    );
    await publisher.publishDetectionEvents(events);
    const seen = await collect(topics.detectionEvents);
    await eventually(() => seen.length === events.length, 60_000);
    expect(seen.map((r) => (r.value as DetectionEventRecord).id)).toEqual(events.map((e) => e.id));
    await publisher.disconnect();

    // Every one refused: the letters of a batch carry its bytes and more.
    await start(
      log.createDecodedBatchConsumer({
        groupId: `${topics.detectionEvents}.refuse-all`,
        topics: [topics.detectionEvents],
        logger,
        handler: async (records) => ({
          rejected: records.map((record) => ({ record, reason: 'refused: '.repeat(20) })),
        }),
      }),
    );
    const letters = await collect(dlqTopicOf(topics.detectionEvents), (value) => value);
    await eventually(() => letters.length === events.length, 60_000);
    expect(await log.codec.decode(letters[9_999].raw.value)).toEqual(events[9_999]);
  }, 180_000);

  it('lets records gather into fewer batches when the consumer asks for it', async () => {
    const publisher = log.createContractPublisher(topics);
    await publisher.connect();
    const batches: number[] = [];
    await start(
      log.createDecodedBatchConsumer({
        groupId: `${topics.detectionEvents}.gathering`,
        topics: [topics.detectionEvents],
        logger,
        gatherForMs: 1_000,
        handler: async (records) => {
          batches.push(records.length);
          return { rejected: [] };
        },
      }),
    );
    for (let n = 0; n < 5; n++) {
      await publisher.publishDetectionEvents([anEventRecord({ detection_id: 'det-g' })]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await eventually(() => batches.reduce((sum, size) => sum + size, 0) === 5);
    // Five records written 50 ms apart: handled in one or two batches, not five.
    expect(batches.length).toBeLessThanOrEqual(2);
    await publisher.disconnect();
  }, 60_000);

  it('sends undecodable and rejected records to the DLQ with the reason, and moves on', async () => {
    const publisher = log.createContractPublisher(topics);
    await publisher.connect();
    const [bad, refused, good] = ['bad', 'refused', 'good'].map((id) =>
      anEventRecord({ id, detection_id: 'det-b' }),
    );
    await publisher.publishDetectionEvents([bad, refused, good]);
    const handled: unknown[] = [];
    await start(
      log.createDecodedBatchConsumer({
        groupId: `${topics.detectionEvents}.dlq-test`,
        topics: [topics.detectionEvents],
        logger,
        decode: async (value) => {
          const event = (await log.codec.decode(value)) as DetectionEventRecord;
          if (event.id === 'bad') throw new DecodeError('not a valid event');
          return event;
        },
        handler: async (records) => {
          handled.push(...records.map((r) => r.value));
          return {
            rejected: records
              .filter((r) => (r.value as DetectionEventRecord).id === 'refused')
              .map((record) => ({ record, reason: 'refused by the handler' })),
          };
        },
      }),
    );
    const letters = await collect(dlqTopicOf(topics.detectionEvents), (value) => value);
    await eventually(() => letters.length === 2);
    expect(handled).toEqual([refused, good]);
    expect(letters.map((l) => l.raw.headers?.['dlq.reason']?.toString())).toEqual([
      'not a valid event',
      'refused by the handler',
    ]);
    expect(await log.codec.decode(letters[0].raw.value)).toEqual(bad);
    await publisher.disconnect();
  }, 60_000);

  it('tells its observer that it polls, each step, what it committed and what it dead-lettered, by reason class', async () => {
    const publisher = log.createContractPublisher(topics);
    await publisher.connect();
    await publisher.publishDetectionEvents(
      ['bad', 'refused', 'good'].map((id) => anEventRecord({ id, detection_id: 'det-o' })),
    );
    const { seen, observer } = recordingObserver();
    await start(
      log.createDecodedBatchConsumer({
        groupId: `${topics.detectionEvents}.observed`,
        topics: [topics.detectionEvents],
        logger,
        observer,
        decode: async (value) => {
          const event = (await log.codec.decode(value)) as DetectionEventRecord;
          if (event.id === 'bad') throw new DecodeError('not a valid event', 'schema');
          return event;
        },
        handler: async (records) => ({
          rejected: records
            .filter((r) => (r.value as DetectionEventRecord).id === 'refused')
            .map((record) => ({ record, reason: 'refused', reasonClass: 'validation' as const })),
        }),
      }),
    );
    await eventually(() => seen.consumed === 3 && seen.deadLetters.length === 2);
    expect(seen.deadLetters.sort((a, b) => a.reason.localeCompare(b.reason))).toEqual([
      { reason: 'schema', records: 1 },
      { reason: 'validation', records: 1 },
    ]);
    expect(seen.polls).toBeGreaterThan(0);
    expect(seen.steps).toBeGreaterThan(0);
    expect(seen.openSteps).toBe(0);
    await publisher.disconnect();
  }, 60_000);

  it("reports a group's lag on each partition, and answers its readiness checks", async () => {
    const publisher = log.createContractPublisher(topics);
    await publisher.connect();
    await publisher.publishDetectionEvents(
      [1, 2, 3].map(() => anEventRecord({ detection_id: 'det-lag' })),
    );
    const groupId = `${topics.detectionEvents}.lagging`;
    const lagOf = async () =>
      (await log.consumerLag(groupId, [topics.detectionEvents])).reduce((sum, p) => sum + p.lag, 0);
    const partitions = await log.consumerLag(groupId, [topics.detectionEvents]);
    expect(partitions.map((p) => p.partition)).toEqual([0, 1, 2]);
    expect(await lagOf()).toBe(3);
    const consumed: unknown[] = [];
    await start(
      log.createDecodedBatchConsumer({
        groupId,
        topics: [topics.detectionEvents],
        logger,
        handler: async (records) => {
          consumed.push(...records);
          return { rejected: [] };
        },
      }),
    );
    await eventually(() => consumed.length === 3);
    const deadline = Date.now() + 30_000;
    while ((await lagOf()) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await lagOf()).toBe(0);

    const checks = log.readinessChecks();
    expect(checks.map((c) => c.dependency)).toEqual(
      name === 'kafka' ? ['kafka', 'schema-registry'] : ['in-process-log'],
    );
    for (const check of checks) await check.check(AbortSignal.timeout(5_000));
    await publisher.disconnect();
  }, 60_000);

  it('lets a readiness check under way end before it closes, and refuses checks after', async () => {
    const checks = log.readinessChecks();
    const underWay = checks.map((check) =>
      check.check(AbortSignal.timeout(5_000)).then(
        () => 'answered',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
    );
    await log.close();
    expect(await Promise.all(underWay)).toEqual(checks.map(() => 'answered'));
    await expect(checks[0].check(AbortSignal.timeout(5_000))).rejects.toThrow(/closed/);
  }, 60_000);

  it("tells the processor's observer each committed batch", async () => {
    const publisher = log.createContractPublisher(topics);
    await publisher.connect();
    const { seen, observer } = recordingObserver();
    await start(
      log.createTransactionalProcessor({
        logger,
        groupId: `${topics.detectionEvents}.observed-processor`,
        topics: [topics.detectionEvents],
        changelogTopic: topics.detectionState,
        observer,
        createPartitionHandler: (_topic, partition, changelog) =>
          countingHandler(topics, partition, changelog, new Set()),
      }),
    );
    await publisher.publishDetectionEvents(
      [1, 2].map(() => anEventRecord({ detection_id: 'det-p' })),
    );
    await eventually(() => seen.consumed === 2);
    expect(seen.committed).toBeGreaterThan(0);
    expect(seen.openSteps).toBe(0);
    await publisher.disconnect();
  }, 90_000);

  it('commits a processor batch with its state and offsets at once, and restores after a restart', async () => {
    const publisher = log.createContractPublisher(topics);
    await publisher.connect();
    const failOn = new Set<string>(['boom']);
    const processor = () =>
      log.createTransactionalProcessor({
        logger,
        groupId: `${topics.detectionEvents}.processor`,
        topics: [topics.detectionEvents],
        changelogTopic: topics.detectionState,
        createPartitionHandler: (_topic, partition, changelog) =>
          countingHandler(topics, partition, changelog, failOn),
      });
    const commands = await collect(topics.notificationCommands, (value) => value?.toString());
    const latest = () =>
      commands.map((c) => c.value as string).filter((c) => c.startsWith('det-c='));

    const first: PartitionProcessor = await start(processor());
    await publisher.publishDetectionEvents([
      anEventRecord({ detection_id: 'det-c' }),
      anEventRecord({ detection_id: 'det-c', id: 'boom' }),
    ]);
    await eventually(() => latest().includes('det-c=2'));
    // The failed attempt wrote nothing: no command ever counted the first event twice.
    expect(latest().every((c) => ['det-c=1', 'det-c=2'].includes(c))).toBe(true);
    await first.stop();
    running.splice(running.indexOf(first), 1);

    await start(processor());
    await publisher.publishDetectionEvents([anEventRecord({ detection_id: 'det-c' })]);
    await eventually(() => latest().includes('det-c=3'));
    expect(latest()).not.toContain('det-c=4');
    await publisher.disconnect();
  }, 90_000);
});

describe('in-process log shared by several apps', () => {
  it('keeps one log per data folder until its last user closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-shared-'));
    const topics = new TopicCatalog('shared.', 2);
    const ingest = openInProcessLog(dir, logger);
    const indexer = openInProcessLog(dir, logger);
    await ingest.ensureTopics(topics.all());
    await registerContracts(ingest.codec, topics);
    expect(await indexer.ensureTopics(topics.all())).toEqual([]);
    await ingest.close();
    const event = anEventRecord();
    const publisher = indexer.createContractPublisher(topics);
    await registerContracts(indexer.codec, topics);
    await publisher.publishDetectionEvents([event]);
    await indexer.close();

    const reopened = openInProcessLog(dir, logger);
    await registerContracts(reopened.codec, topics);
    const seen: unknown[] = [];
    const consumer = reopened.createDecodedBatchConsumer({
      groupId: 'g',
      topics: [topics.detectionEvents],
      logger,
      handler: async (records) => {
        seen.push(...records.map((r) => r.value));
        return { rejected: [] };
      },
    });
    await consumer.start();
    await eventually(() => seen.length === 1);
    expect(seen).toEqual([event]);
    await consumer.stop();
    await reopened.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
