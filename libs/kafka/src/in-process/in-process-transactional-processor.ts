import {
  asStep,
  reportDeadLetters,
  unobserved,
  type ProcessorObserver,
} from '../port/consumer-observer';
import type { ContractCodec } from '../port/contract-codec';
import { deadLetterOf, deadLetterRecord, type DeadLetter } from '../port/dead-letter';
import { decodeRecords } from '../port/decode-records';
import type { OutputRecord, PartitionHandler } from '../port/partition-handler';
import type { PartitionProcessor, PartitionProcessorSpec } from '../port/partition-processor';
import {
  countBatchStages,
  emptyProcessorMetrics,
  type ProcessorMetrics,
} from '../port/processor-metrics';
import type { InProcessGroupLock } from './in-process-group-lock';
import type { OffsetToCommit, PartitionedLog, RecordToAppend } from './partitioned-log';
import { toLogRecord } from './to-log-record';

const MAX_BATCH_RECORDS = 2000;
const IDLE_WAIT_MS = 250;
const RETRY_DELAY_MS = 1_000;

interface PartitionTask {
  topic: string;
  partition: number;
  handler: PartitionHandler;
  /** Batches and punctuations of a partition run one at a time, in order. */
  tail: Promise<unknown>;
  punctuationQueued: boolean;
  closed: boolean;
  position: number;
}

/**
 * TransactionalProcessor over the in-process log, with the same PartitionHandler contract: a
 * partition's state is restored from the latest value of each key of its changelog partition,
 * and each micro-batch's outputs, dead letters and input offsets are one atomic write (a
 * punctuation's outputs another). After a failed batch the partition is dropped and restored
 * again from the changelog and the committed offset, so memory never runs ahead of the log.
 */
export class InProcessTransactionalProcessor implements PartitionProcessor {
  private running = false;
  private loop: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly tasks = new Map<string, PartitionTask>();
  private lastBatchAt = 0;
  private readonly counters = emptyProcessorMetrics();
  private readonly observer: ProcessorObserver;

  constructor(
    private readonly log: PartitionedLog,
    private readonly codec: ContractCodec,
    private readonly groups: InProcessGroupLock,
    private readonly spec: PartitionProcessorSpec,
  ) {
    this.observer = spec.observer ?? unobserved;
  }

  get lastActivityAt(): number {
    return this.lastBatchAt;
  }

  get metrics(): ProcessorMetrics {
    return { ...this.counters, stageMs: { ...this.counters.stageMs } };
  }

  async start(): Promise<void> {
    this.running = true;
    const leave = await this.groups.acquire(this.spec.groupId);
    this.loop = this.run().finally(leave);
    this.timer = setInterval(() => this.wake(), this.spec.punctuateIntervalMs ?? 1_000);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    await this.loop;
    for (const task of [...this.tasks.values()]) {
      await task.tail;
      this.release(task);
    }
  }

  wake(): void {
    if (!this.running) return;
    for (const task of this.tasks.values()) {
      if (task.punctuationQueued || task.closed) continue;
      task.punctuationQueued = true;
      void this.exclusive(task, async () => {
        task.punctuationQueued = false;
        if (task.closed || !this.running) return;
        const result = task.handler.punctuate(Date.now());
        if (!result) return;
        if (result.outputs.length > 0) {
          const done = this.observer.batchStarted();
          try {
            this.writeTransaction(result.outputs, [], null);
          } finally {
            done();
          }
        }
        result.commit?.();
      }).catch((error: unknown) => this.failed(task, error));
    }
  }

  private async run(): Promise<void> {
    while (this.running && !this.log.isClosed) {
      this.observer.polled();
      let handled = false;
      for (const topic of this.spec.topics) {
        for (let partition = 0; partition < this.log.partitionCount(topic); partition++) {
          if (!this.running) return;
          const task = this.taskFor(topic, partition);
          const records = this.log.read(
            topic,
            partition,
            Math.max(task.position, this.log.startOffset(topic, partition)),
            MAX_BATCH_RECORDS,
          );
          if (records.length === 0) continue;
          handled = true;
          try {
            await this.exclusive(task, () =>
              asStep(this.observer, () => this.handleBatch(task, records)),
            );
          } catch (error) {
            this.failed(task, error);
            await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
          }
        }
      }
      if (!handled) await this.log.waitForWrite(IDLE_WAIT_MS);
    }
  }

  private async handleBatch(
    task: PartitionTask,
    records: Awaited<ReturnType<PartitionedLog['read']>>,
  ): Promise<void> {
    if (task.closed) return;
    const { topic, partition } = task;
    this.counters.firstBatchAt ??= Date.now();
    const started = Date.now();
    const { decoded, letters } = await decodeRecords(
      topic,
      partition,
      records.map(toLogRecord),
      (value) => this.codec.decode(value),
    );
    const decodedAt = Date.now();
    const result = await task.handler.process(decoded, decodedAt);
    for (const { record, reason, reasonClass } of result.rejected) {
      letters.push(deadLetterOf(record, reason, reasonClass));
    }
    const processedAt = Date.now();
    const next = records[records.length - 1].offset + 1;
    this.writeTransaction(result.outputs, letters, {
      groupId: this.spec.groupId,
      topic,
      partition,
      offset: next,
    });
    const committedAt = Date.now();
    countBatchStages(
      this.counters,
      { started, decoded: decodedAt, processed: processedAt, committed: committedAt },
      result.outputs.length + letters.length,
    );
    this.observer.batchCommitted({
      decodeMs: decodedAt - started,
      processMs: processedAt - decodedAt,
      commitMs: committedAt - processedAt,
    });
    this.observer.consumed(topic, partition, records.length);
    reportDeadLetters(this.observer, letters);
    result.commit?.();
    task.position = next;
    this.lastBatchAt = Date.now();
    this.counters.batches += 1;
    this.counters.records += records.length;
    if (letters.length > 0)
      this.spec.logger.warn({ topic, partition, count: letters.length }, 'records sent to the DLQ');
    this.spec.logger.debug(
      { topic, partition, size: records.length, ms: Date.now() - started },
      'batch committed',
    );
  }

  private writeTransaction(
    outputs: readonly OutputRecord[],
    letters: readonly DeadLetter[],
    handled: OffsetToCommit | null,
  ): void {
    const at = Date.now();
    const records: RecordToAppend[] = [
      ...outputs.map((o) => ({ ...o })),
      ...letters.map((letter) => deadLetterRecord(letter, at)),
    ];
    try {
      this.log.write(records, handled ? [handled] : []);
    } catch (error) {
      // The write is atomic: nothing of it was kept, as an aborted Kafka transaction.
      this.observer.transactionAborted();
      throw error;
    }
    this.counters.transactions += 1;
    this.counters.lastCommitAt = Date.now();
  }

  /** The task of a partition, restoring its state from the changelog on first use. */
  private taskFor(topic: string, partition: number): PartitionTask {
    const key = `${topic}#${partition}`;
    const existing = this.tasks.get(key);
    if (existing) return existing;
    const { changelogTopic, groupId, logger } = this.spec;
    const started = Date.now();
    const changelog = this.log.hasTopic(changelogTopic)
      ? this.log.latestValues(changelogTopic, partition)
      : new Map<string, Buffer>();
    const handler = this.spec.createPartitionHandler(topic, partition, changelog, Date.now());
    const fromBeginning = this.spec.fromBeginning ?? true;
    const task: PartitionTask = {
      topic,
      partition,
      handler,
      tail: Promise.resolve(),
      punctuationQueued: false,
      closed: false,
      position:
        this.log.committedOffset(groupId, topic, partition) ??
        (fromBeginning ? 0 : this.log.endOffset(topic, partition)),
    };
    this.tasks.set(key, task);
    logger.info(
      { topic, partition, keys: changelog.size, ms: Date.now() - started },
      'partition acquired',
    );
    return task;
  }

  private failed(task: PartitionTask, error: unknown): void {
    this.spec.logger.warn(
      { err: error, topic: task.topic, partition: task.partition },
      'partition transaction failed; restoring it',
    );
    const key = `${task.topic}#${task.partition}`;
    if (this.tasks.get(key) === task) this.tasks.delete(key);
    this.release(task);
  }

  private release(task: PartitionTask): void {
    if (task.closed) return;
    task.closed = true;
    task.handler.close?.();
  }

  private exclusive<T>(task: PartitionTask, fn: () => Promise<T>): Promise<T> {
    const run = task.tail.then(fn, fn);
    task.tail = run.catch(() => undefined);
    return run;
  }
}
