/** How many records of a partition a consumer group has not committed yet. */
export interface PartitionLag {
  topic: string;
  partition: number;
  lag: number;
}
