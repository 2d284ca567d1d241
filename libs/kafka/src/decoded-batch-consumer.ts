import { backOff } from 'exponential-backoff';
import {
  Partitioners,
  type Consumer,
  type EachBatchPayload,
  type Kafka,
  type KafkaMessage,
} from 'kafkajs';
import type { Logger } from '@vigil/config';
import { DecodeError } from './avro-codec';
import { DeadLetterPublisher, deadLetterOf, type DeadLetter } from './dead-letter-publisher';
import type { BatchConsumer, ContractCodec } from './message-log';

export interface DecodedRecord {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  raw: KafkaMessage;
  value: unknown;
}

/**
 * What a handler does with one partition's decoded records: its effects must be durable when it
 * returns. Records it cannot accept come back with a reason and go to the DLQ.
 */
export type DecodedBatchHandler = (
  records: DecodedRecord[],
) => Promise<{ rejected: { record: DecodedRecord; reason: string }[] }>;

export interface DecodedBatchConsumerOptions {
  kafka: Kafka;
  codec: ContractCodec;
  /** Replaces `codec.decode` for topics that are not Avro; throws a DecodeError to dead-letter. */
  decode?: (value: Buffer | null) => unknown;
  groupId: string;
  topics: string[];
  handler: DecodedBatchHandler;
  logger: Logger;
  fromBeginning?: boolean;
}

/**
 * Consumes Avro topics batch by batch: undecodable records go to the DLQ with their reason,
 * the rest to the handler; offsets are committed only after the handler's effects and the
 * dead letters are durable. A failing handler is retried with backoff on the same batch, so
 * a backend outage delays the partition but loses nothing.
 */
export class DecodedBatchConsumer implements BatchConsumer {
  private consumer: Consumer | null = null;
  private producerClosed = false;
  private readonly deadLetterProducer;
  private lastBatchAt = 0;

  constructor(private readonly options: DecodedBatchConsumerOptions) {
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
    const { kafka, groupId, topics, fromBeginning = true } = this.options;
    await this.deadLetterProducer.connect();
    const consumer = kafka.consumer({
      groupId,
      readUncommitted: false,
      maxBytes: 10 * 1024 * 1024,
    });
    this.consumer = consumer;
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

    const decoded: DecodedRecord[] = [];
    const letters: DeadLetter[] = [];
    for (const message of batch.messages) {
      const base = {
        topic: batch.topic,
        partition: batch.partition,
        offset: message.offset,
        key: message.key,
      };
      try {
        const value = await decode(message.value);
        decoded.push({ ...base, raw: message, value });
      } catch (error) {
        if (!(error instanceof DecodeError)) throw error;
        letters.push({
          ...base,
          value: message.value,
          headers: message.headers,
          reason: error.message,
        });
      }
    }

    const result = await backOff(() => handler(decoded), {
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
    for (const { record, reason } of result.rejected) letters.push(deadLetterOf(record, reason));
    await deadLetters.publish(letters);
    if (letters.length > 0) {
      logger.warn(
        { topic: batch.topic, partition: batch.partition, count: letters.length },
        'records sent to the DLQ',
      );
    }
    payload.resolveOffset(batch.lastOffset());
    await payload.commitOffsetsIfNecessary();
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
