/**
 * Offset arithmetic of the transactional loop, kept pure. Kafka offsets are int64 carried as
 * decimal strings by kafkajs; BigInt keeps them exact past 2^53.
 */

export interface TopicPartitionOffset {
  topic: string;
  partition: number;
  /** Offset of the last record handled in the partition. */
  lastOffset: string;
}

/** The position to commit after a record: Kafka commits the next offset to read, not the last read. */
export function nextOffset(lastOffset: string): string {
  return (BigInt(lastOffset) + 1n).toString();
}

/**
 * The `topics` argument of `transaction.sendOffsets`: for each partition the offset after the
 * highest record handled (several entries for one partition keep the furthest).
 */
export function offsetsToCommit(
  handled: readonly TopicPartitionOffset[],
): { topic: string; partitions: { partition: number; offset: string }[] }[] {
  const byTopic = new Map<string, Map<number, bigint>>();
  for (const { topic, partition, lastOffset } of handled) {
    const partitions = byTopic.get(topic) ?? new Map<number, bigint>();
    const next = BigInt(lastOffset) + 1n;
    const current = partitions.get(partition);
    if (current === undefined || next > current) partitions.set(partition, next);
    byTopic.set(topic, partitions);
  }
  return [...byTopic].map(([topic, partitions]) => ({
    topic,
    partitions: [...partitions]
      .sort(([a], [b]) => a - b)
      .map(([partition, offset]) => ({ partition, offset: offset.toString() })),
  }));
}

/**
 * Which partitions of a changelog hold anything to restore, and up to where: the end offset
 * (high watermark) observed once the partition's writers were fenced. Empty partitions
 * (high = low) need no reading at all.
 */
export function restoreTargets(
  offsets: readonly { partition: number; high: string; low: string }[],
  partitions: readonly number[],
): Map<number, string> {
  const wanted = new Set(partitions);
  const targets = new Map<number, string>();
  for (const { partition, high, low } of offsets) {
    if (wanted.has(partition) && BigInt(high) > BigInt(low)) targets.set(partition, high);
  }
  return targets;
}

/** A restore is complete once the position (next offset to read) reached the target end offset. */
export function reachedEnd(lastOffsetRead: string | undefined, endOffset: string): boolean {
  if (lastOffsetRead === undefined) return false;
  return BigInt(lastOffsetRead) + 1n >= BigInt(endOffset);
}

/**
 * A group's lag on each partition: the end offset (high watermark) less the committed offset, or
 * less the first offset still stored when the group never committed (or committed one retention
 * already removed). Never negative.
 */
export function partitionLags(
  ends: readonly { partition: number; high: string; low: string }[],
  committed: readonly { partition: number; offset: string }[],
): { partition: number; lag: number }[] {
  const committedBy = new Map(committed.map((c) => [c.partition, BigInt(c.offset)]));
  return ends
    .map(({ partition, high, low }) => {
      const end = BigInt(high);
      const start = BigInt(low);
      const at = committedBy.get(partition);
      const position = at === undefined || at < start ? start : at;
      const lag = end > position ? end - position : 0n;
      return { partition, lag: Number(lag) };
    })
    .sort((a, b) => a.partition - b.partition);
}
