import { backOff } from 'exponential-backoff';
import type { Consumer, EachBatchPayload, Kafka, Producer } from 'kafkajs';
import type { Logger } from '@vigil/config';
import { decodeNotificationCommand, type NotificationCommand } from '@vigil/contracts';
import { DeadLetterPublisher, type DeadLetter } from '@vigil/kafka';
import { nextOffset } from './next-offset';

/**
 * What to do with one partition's commands: make their deliveries durable, and return the
 * commands that cannot be turned into deliveries (they go to the DLQ with the reason).
 */
export type CommandBatchHandler = (
  commands: NotificationCommand[],
) => Promise<{ rejected: { index: number; reason: string }[] }>;

export interface CommandConsumerOptions {
  kafka: Kafka;
  groupId: string;
  topic: string;
  handler: CommandBatchHandler;
  logger: Logger;
}

/**
 * Reads `notifications.commands.v1` (read committed: only commands of committed processor
 * transactions), hands each batch to the handler, and commits the offsets only once the
 * handler's rows and the dead letters are durable. A failing handler is retried with backoff on
 * the same batch: a database outage delays notifications, it loses none.
 */
export class CommandConsumer {
  private consumer: Consumer | null = null;
  private readonly producer: Producer;
  private lastBatchAt = 0;

  constructor(private readonly options: CommandConsumerOptions) {
    this.producer = options.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  }

  get lastActivityAt(): number {
    return this.lastBatchAt;
  }

  async start(): Promise<void> {
    const { kafka, groupId, topic } = this.options;
    await this.producer.connect();
    const consumer = kafka.consumer({ groupId, readUncommitted: false });
    this.consumer = consumer;
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    const deadLetters = new DeadLetterPublisher(this.producer);
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.handleBatch(payload, deadLetters),
    });
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
    await this.producer.disconnect();
  }

  private async handleBatch(payload: EachBatchPayload, deadLetters: DeadLetterPublisher) {
    const { batch } = payload;
    if (batch.messages.length === 0) return;
    const { handler, logger } = this.options;
    const started = Date.now();
    const commands: NotificationCommand[] = [];
    const sources: (typeof batch.messages)[number][] = [];
    const letters: DeadLetter[] = [];
    const letterOf = (message: (typeof batch.messages)[number], reason: string): DeadLetter => ({
      topic: batch.topic,
      partition: batch.partition,
      offset: message.offset,
      key: message.key,
      value: message.value,
      headers: message.headers,
      reason,
    });

    for (const message of batch.messages) {
      const command = decodeNotificationCommand(message.value);
      if (command) {
        commands.push(command);
        sources.push(message);
      } else {
        letters.push(letterOf(message, 'Not a notification command of version 1 (JSON)'));
      }
    }

    const result = await backOff(() => handler(commands), {
      numOfAttempts: Number.MAX_SAFE_INTEGER,
      startingDelay: 200,
      maxDelay: 10_000,
      jitter: 'full',
      retry: async (error: unknown, attempt: number) => {
        logger.warn(
          { err: error, attempt, partition: batch.partition },
          'command batch failed; retrying',
        );
        if (!payload.isRunning() || payload.isStale()) return false;
        await payload.heartbeat().catch(() => undefined);
        return true;
      },
    });
    for (const { index, reason } of result.rejected) letters.push(letterOf(sources[index], reason));
    await deadLetters.publish(letters);
    if (letters.length > 0) {
      logger.warn(
        { partition: batch.partition, count: letters.length },
        'commands sent to the DLQ',
      );
    }

    const last = batch.lastOffset();
    payload.resolveOffset(last);
    await this.consumer?.commitOffsets([
      { topic: batch.topic, partition: batch.partition, offset: nextOffset(last) },
    ]);
    await payload.heartbeat();
    this.lastBatchAt = Date.now();
    logger.debug(
      { partition: batch.partition, size: batch.messages.length, ms: Date.now() - started },
      'command batch handled',
    );
  }
}
