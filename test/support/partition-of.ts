import { Partitioners, type PartitionMetadata } from 'kafkajs';

const partitioner = Partitioners.DefaultPartitioner();

function metadataOf(partitions: number): PartitionMetadata[] {
  return Array.from({ length: partitions }, (_, partitionId) => ({
    partitionErrorCode: 0,
    partitionId,
    leader: 0,
    replicas: [0],
    isr: [0],
  }));
}

/** The partition our producers (murmur2, as Java clients) put a record keyed `key` on. */
export function partitionOf(key: string, partitions: number): number {
  return partitioner({
    topic: 'any',
    partitionMetadata: metadataOf(partitions),
    message: { key, value: null },
  });
}

/**
 * A key `${prefix}-<n>` on the same partition as `key`. A record with it sent after a record
 * keyed `key` is consumed after it, so its effect proves the earlier record was processed.
 */
export function keyOnPartitionOf(key: string, prefix: string, partitions: number): string {
  const target = partitionOf(key, partitions);
  for (let n = 0; ; n++) {
    const candidate = `${prefix}-${n}`;
    if (candidate !== key && partitionOf(candidate, partitions) === target) return candidate;
  }
}
