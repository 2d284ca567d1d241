import type { ReadinessCheck } from '@vigil/ops';
import type { BatchConsumer, DecodedBatchConsumerSpec } from './batch-consumer';
import type { ContractCodec } from './contract-codec';
import type { ContractRecordPublisher } from './contract-record-publisher';
import type { PartitionLag } from './partition-lag';
import type { PartitionProcessor, PartitionProcessorSpec } from './partition-processor';
import type { TopicCatalog, TopicSpec } from './topic-catalog';

/**
 * The partitioned log the apps run on: Kafka with a schema registry, or the in-process log of
 * the embedded mode (DESIGN.md §8). Both keep the same record bytes, key → partition mapping
 * (murmur2), read-committed visibility and DLQ behaviour.
 */
export interface MessageLog {
  readonly kind: 'kafka' | 'in-process';
  readonly codec: ContractCodec;
  /** Creates the topics that do not exist yet; returns their names. */
  ensureTopics(topics: readonly TopicSpec[], replicationFactor?: number): Promise<string[]>;
  createContractPublisher(topics: TopicCatalog): ContractRecordPublisher;
  createDecodedBatchConsumer(spec: DecodedBatchConsumerSpec): BatchConsumer;
  createTransactionalProcessor(spec: PartitionProcessorSpec): PartitionProcessor;
  /** The group's lag on every partition of `topics`: end offset less committed offset. */
  consumerLag(groupId: string, topics: readonly string[]): Promise<PartitionLag[]>;
  /**
   * What /readyz checks of the log: the Kafka cluster and, unless left out, the schema registry;
   * or the in-process log.
   */
  readinessChecks(options?: { schemaRegistry?: boolean }): ReadinessCheck[];
  /** Releases the log (the in-process one closes with its last user). */
  close(): Promise<void>;
}
