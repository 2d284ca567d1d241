import type { Logger } from '@vigil/config';
import { decodeNotificationCommand, type NotificationCommand } from '@vigil/contracts';
import {
  DecodeError,
  type BatchConsumer,
  type DecodedBatchConsumerSpec,
  type MessageLog,
} from '@vigil/kafka';

/**
 * What to do with one partition's commands: make their deliveries durable, and return the
 * commands that cannot be turned into deliveries (they go to the DLQ with the reason).
 */
export type CommandBatchHandler = (
  commands: NotificationCommand[],
) => Promise<{ rejected: { index: number; reason: string }[] }>;

export interface CommandConsumerOptions {
  /** Kafka or the in-process log. */
  log: MessageLog;
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
export class CommandConsumer implements BatchConsumer {
  private readonly consumer: BatchConsumer;

  constructor(options: CommandConsumerOptions) {
    const { log, groupId, topic, handler, logger } = options;
    const spec: DecodedBatchConsumerSpec = {
      groupId,
      topics: [topic],
      logger,
      decode: (value) => {
        const command = decodeNotificationCommand(value);
        if (!command) throw new DecodeError('Not a notification command of version 1 (JSON)');
        return command;
      },
      handler: async (records) => {
        const result = await handler(records.map((r) => r.value as NotificationCommand));
        return {
          rejected: result.rejected.map(({ index, reason }) => ({
            record: records[index],
            reason,
          })),
        };
      },
    };
    this.consumer = log.createDecodedBatchConsumer(spec);
  }

  get lastActivityAt(): number {
    return this.consumer.lastActivityAt;
  }

  start(): Promise<void> {
    return this.consumer.start();
  }

  stop(): Promise<void> {
    return this.consumer.stop();
  }
}
