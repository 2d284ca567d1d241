import { backOff } from 'exponential-backoff';
import { Partitioners, type Consumer, type EachBatchPayload, type Kafka } from 'kafkajs';
import type { BatchConsumer, DecodedBatchConsumerSpec } from '../port/batch-consumer';
import {
  asStep,
  reportDeadLetters,
  unobserved,
  type ConsumerObserver,
} from '../port/consumer-observer';
import type { ContractCodec } from '../port/contract-codec';
import { deadLetterOf } from '../port/dead-letter';
import { decodeRecords } from '../port/decode-records';
import { DeadLetterPublisher } from './dead-letter-publisher';
import { restartUnless } from './restart-unless';

export interface DecodedBatchConsumerOptions extends DecodedBatchConsumerSpec {
  kafka: Kafka;
  codec: ContractCodec;
}

/** What a gathering consumer waits for at most, besides its time: a large batch. */
const GATHER_MIN_BYTES = 1024 * 1024;

/**
 * Consumes Avro topics batch by batch: undecodable records go to the DLQ with their reason,
 * the rest to the handler; offsets are committed only after the handler's effects and the
 * dead letters are durable. A failing handler is retried with backoff on the same batch, so
 * a backend outage delays the partition but loses nothing.
 */
export class DecodedBatchConsumer implements BatchConsumer {
  private consumer: Consumer | null = null;
  private stopping = false;
  private producerClosed = false;
  private readonly deadLetterProducer;
  private lastBatchAt = 0;
  private readonly observer: ConsumerObserver;

  constructor(private readonly options: DecodedBatchConsumerOptions) {
    this.observer = options.observer ?? unobserved;
    this.deadLetterProducer = options.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      // Murmur2, as Java clients use, so keys land on the same partitions whoever produces.
      createPartitioner: Partitioners.DefaultPartitioner,
    });
  }

  /** Time of the last batch handled, for readiness checks. */
  get lastActivityAt(): number {
    return this.lastBatchAt;
  }

  async start(): Promise<void> {
    const { kafka, groupId, topics, fromBeginning = true, gatherForMs } = this.options;
    this.stopping = false;
    await this.deadLetterProducer.connect();
    const consumer = kafka.consumer({
      groupId,
      readUncommitted: false,
      maxBytes: 10 * 1024 * 1024,
      // The broker holds a fetch until this much has gathered or the time is up.
      ...(gatherForMs ? { minBytes: GATHER_MIN_BYTES, maxWaitTimeInMs: gatherForMs } : {}),
      retry: restartUnless(() => this.stopping),
    });
    this.consumer = consumer;
    // A fetch, found records or not, and a heartbeat (sent between batches and while a failing
    // batch is retried) both say the loop turns.
    consumer.on(consumer.events.FETCH_START, () => this.observer.polled());
    consumer.on(consumer.events.HEARTBEAT, () => this.observer.polled());
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning });
    const deadLetters = new DeadLetterPublisher(this.deadLetterProducer);
    await consumer.run({
      eachBatchAutoResolve: false,
      autoCommit: true,
      eachBatch: (payload) => this.handleBatch(payload, deadLetters),
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.consumer?.disconnect();
    if (!this.producerClosed) {
      this.producerClosed = true;
      await this.deadLetterProducer.disconnect();
    }
  }

  private async handleBatch(payload: EachBatchPayload, deadLetters: DeadLetterPublisher) {
    const { batch } = payload;
    if (batch.messages.length === 0) return;
    const { handler, logger } = this.options;
    const decode = this.options.decode ?? ((value) => this.options.codec.decode(value));
    const started = Date.now();

    const { observer } = this;
    const { decoded, letters } = await asStep(observer, () =>
      decodeRecords(batch.topic, batch.partition, batch.messages, decode),
    );

    const result = await backOff(() => asStep(observer, () => handler(decoded)), {
      numOfAttempts: Number.MAX_SAFE_INTEGER,
      startingDelay: 200,
      maxDelay: 10_000,
      jitter: 'full',
      retry: async (error: unknown, attempt: number) => {
        logger.warn(
          { err: error, attempt, topic: batch.topic, partition: batch.partition },
          'batch failed; retrying',
        );
        if (!payload.isRunning() || payload.isStale()) return false;
        await payload.heartbeat().catch(() => undefined);
        return true;
      },
    });
    for (const { record, reason, reasonClass } of result.rejected) {
      letters.push(deadLetterOf(record, reason, reasonClass));
    }
    await asStep(observer, async () => {
      await deadLetters.publish(letters);
      payload.resolveOffset(batch.lastOffset());
      await payload.commitOffsetsIfNecessary();
    });
    if (letters.length > 0) {
      logger.warn(
        { topic: batch.topic, partition: batch.partition, count: letters.length },
        'records sent to the DLQ',
      );
    }
    observer.consumed(batch.topic, batch.partition, batch.messages.length);
    reportDeadLetters(observer, letters);
    await payload.heartbeat();
    this.lastBatchAt = Date.now();
    logger.debug(
      {
        topic: batch.topic,
        partition: batch.partition,
        size: batch.messages.length,
        ms: Date.now() - started,
      },
      'batch handled',
    );
  }
}
