import { backOff } from 'exponential-backoff';
import type { InProcessGroupLock } from './in-process-group-lock';
import { deadLetterOf } from './dead-letter-publisher';
import { deadLetterRecords, decodeRecords } from './in-process-records';
import type { BatchConsumer, ContractCodec, DecodedBatchConsumerSpec } from './message-log';
import type { PartitionedLog } from './partitioned-log';

const MAX_BATCH_RECORDS = 1000;
const IDLE_WAIT_MS = 250;

/**
 * DecodedBatchConsumer over the in-process log: the same decode → handler → DLQ → commit
 * sequence, with the dead letters and the offsets written in one durable write after the
 * handler returned. Partitions are visited in turn by one loop.
 */
export class InProcessBatchConsumer implements BatchConsumer {
  private running = false;
  private loop: Promise<void> | null = null;
  private lastBatchAt = 0;
  private readonly positions = new Map<string, number>();

  constructor(
    private readonly log: PartitionedLog,
    private readonly codec: ContractCodec,
    private readonly groups: InProcessGroupLock,
    private readonly spec: DecodedBatchConsumerSpec,
  ) {}

  get lastActivityAt(): number {
    return this.lastBatchAt;
  }

  async start(): Promise<void> {
    this.running = true;
    const leave = await this.groups.acquire(this.spec.groupId);
    this.loop = this.run().finally(leave);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async run(): Promise<void> {
    const { topics, groupId, fromBeginning = true, logger } = this.spec;
    while (this.running && !this.log.isClosed) {
      let handled = false;
      for (const topic of topics) {
        for (let partition = 0; partition < this.log.partitionCount(topic); partition++) {
          if (!this.running) return;
          const key = `${topic}#${partition}`;
          const position = Math.max(
            this.positions.get(key) ??
              this.log.committedOffset(groupId, topic, partition) ??
              (fromBeginning ? 0 : this.log.endOffset(topic, partition)),
            this.log.startOffset(topic, partition),
          );
          const records = this.log.read(topic, partition, position, MAX_BATCH_RECORDS);
          if (records.length === 0) continue;
          handled = true;
          try {
            const next = await this.handleBatch(topic, partition, records);
            this.positions.set(key, next);
          } catch (error) {
            this.positions.delete(key);
            if (this.running) logger.warn({ err: error, topic, partition }, 'batch failed');
          }
        }
      }
      if (!handled) await this.log.waitForWrite(IDLE_WAIT_MS);
    }
  }

  private async handleBatch(
    topic: string,
    partition: number,
    records: Awaited<ReturnType<PartitionedLog['read']>>,
  ): Promise<number> {
    const { handler, logger, groupId } = this.spec;
    const decode = this.spec.decode ?? ((value: Buffer | null) => this.codec.decode(value));
    const started = Date.now();
    const { decoded, letters } = await decodeRecords(topic, partition, records, decode);
    const result = await backOff(() => handler(decoded), {
      numOfAttempts: Number.MAX_SAFE_INTEGER,
      startingDelay: 200,
      maxDelay: 10_000,
      jitter: 'full',
      retry: (error: unknown, attempt: number) => {
        logger.warn({ err: error, attempt, topic, partition }, 'batch failed; retrying');
        return this.running;
      },
    });
    for (const { record, reason } of result.rejected) letters.push(deadLetterOf(record, reason));
    const next = records[records.length - 1].offset + 1;
    this.log.write(deadLetterRecords(letters, Date.now()), [
      { groupId, topic, partition, offset: next },
    ]);
    if (letters.length > 0)
      logger.warn({ topic, partition, count: letters.length }, 'records sent to the DLQ');
    this.lastBatchAt = Date.now();
    logger.debug(
      { topic, partition, size: records.length, ms: Date.now() - started },
      'batch handled',
    );
    return next;
  }
}
