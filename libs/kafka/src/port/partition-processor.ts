import type { Logger } from '@vigil/config';
import type { BatchConsumer } from './batch-consumer';
import type { ProcessorObserver } from './consumer-observer';
import type { ChangelogEntries, PartitionHandler } from './partition-handler';
import type { ProcessorMetrics } from './processor-metrics';

/** Consume → process → produce with one transaction per micro-batch (DESIGN.md §5). */
export interface PartitionProcessor extends BatchConsumer {
  /** Runs every owned partition's punctuation now. */
  wake(): void;
  readonly metrics: ProcessorMetrics;
}

/**
 * A transactional processor as the apps describe it: per input partition, a handler restored
 * from the changelog; each micro-batch's outputs, dead letters and input offsets are written
 * at once.
 */
export interface PartitionProcessorSpec {
  logger: Logger;
  groupId: string;
  topics: string[];
  /** Compacted, co-partitioned with the inputs: partition p restores input partition p. */
  changelogTopic: string;
  createPartitionHandler(
    topic: string,
    partition: number,
    changelog: ChangelogEntries,
    now: number,
  ): PartitionHandler;
  punctuateIntervalMs?: number;
  /**
   * max.message.bytes of the output topics created with a larger one than the broker's 1 MB
   * default (TopicSpec.maxMessageBytes): their records are written in fewer, larger requests.
   */
  maxMessageBytes?: ReadonlyMap<string, number>;
  partitionsConsumedConcurrently?: number;
  fromBeginning?: boolean;
  /** Told of every fetch, step, committed batch, abort and dead letter. */
  observer?: ProcessorObserver;
}
