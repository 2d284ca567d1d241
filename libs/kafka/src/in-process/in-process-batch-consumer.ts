import { backOff } from 'exponential-backoff';
import type { BatchConsumer, DecodedBatchConsumerSpec } from '../port/batch-consumer';
import {
  asStep,
  reportDeadLetters,
  unobserved,
  type ConsumerObserver,
} from '../port/consumer-observer';
import type { ContractCodec } from '../port/contract-codec';
import { deadLetterOf, deadLetterRecord } from '../port/dead-letter';
import { decodeRecords } from '../port/decode-records';
import type { InProcessGroupLock } from './in-process-group-lock';
import type { PartitionedLog } from './partitioned-log';
import { toLogRecord } from './to-log-record';

const MAX_BATCH_RECORDS = 1000;
const IDLE_WAIT_MS = 250;
const GATHER_STEP_MS = 100;

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
  private readonly observer: ConsumerObserver;

  constructor(
    private readonly log: PartitionedLog,
    private readonly codec: ContractCodec,
    private readonly groups: InProcessGroupLock,
    private readonly spec: DecodedBatchConsumerSpec,
  ) {
    this.observer = spec.observer ?? unobserved;
  }

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
      this.observer.polled();
      let handled = false;
      let backlog = false;
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
          if (records.length === MAX_BATCH_RECORDS) backlog = true;
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
      // With a backlog, full batches come anyway: gathering would only slow the catch-up.
      else if (this.spec.gatherForMs && !backlog) await this.gather(this.spec.gatherForMs);
    }
  }

  /** Lets records gather before the next round, in short steps so stop() is not held up. */
  private async gather(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (this.running && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(GATHER_STEP_MS, ms)));
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
    const { observer } = this;
    const { decoded, letters } = await asStep(observer, () =>
      decodeRecords(topic, partition, records.map(toLogRecord), decode),
    );
    const result = await backOff(() => asStep(observer, () => handler(decoded)), {
      numOfAttempts: Number.MAX_SAFE_INTEGER,
      startingDelay: 200,
      maxDelay: 10_000,
      jitter: 'full',
      retry: (error: unknown, attempt: number) => {
        logger.warn({ err: error, attempt, topic, partition }, 'batch failed; retrying');
        return this.running;
      },
    });
    for (const { record, reason, reasonClass } of result.rejected) {
      letters.push(deadLetterOf(record, reason, reasonClass));
    }
    const next = records[records.length - 1].offset + 1;
    const at = Date.now();
    this.log.write(
      letters.map((letter) => deadLetterRecord(letter, at)),
      [{ groupId, topic, partition, offset: next }],
    );
    observer.consumed(topic, partition, records.length);
    reportDeadLetters(observer, letters);
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
