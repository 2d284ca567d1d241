import type { Logger } from '@vigil/config';
import { decodeNotificationCommands, type NotificationCommand } from '@vigil/contracts';
import {
  DecodeError,
  type BatchConsumer,
  type ConsumerObserver,
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
  observer?: ConsumerObserver;
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
    const { log, groupId, topic, handler, logger, observer } = options;
    const spec: DecodedBatchConsumerSpec = {
      groupId,
      topics: [topic],
      logger,
      observer,
      decode: (value) => {
        const commands = decodeNotificationCommands(value);
        if (typeof commands === 'string') throw new DecodeError(commands);
        return commands;
      },
      handler: async (records) => {
        // A version 2 record holds several commands: a rejected one dead-letters its record
        // (the record's other commands still get their deliveries; a replay of the dead letter
        // adds none twice, deliveries being unique per notification and target).
        const commands: NotificationCommand[] = [];
        const recordOf: number[] = [];
        records.forEach((record, index) => {
          for (const command of record.value as NotificationCommand[]) {
            commands.push(command);
            recordOf.push(index);
          }
        });
        const result = await handler(commands);
        const reasons = new Map<number, string[]>();
        for (const { index, reason } of result.rejected) {
          const at = recordOf[index];
          reasons.set(at, [...(reasons.get(at) ?? []), reason]);
        }
        return {
          rejected: [...reasons].map(([index, why]) => ({
            record: records[index],
            reason: why.join('; '),
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
