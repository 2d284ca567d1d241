import type { DetectionEventRecord, InvestigationRecord } from '@vigil/contracts';
import type { DecodedBatchConsumerOptions } from './decoded-batch-consumer';
import type { TopicCatalog, TopicSpec } from './topic-catalog';
import type { ProcessorMetrics, TransactionalProcessorOptions } from './transactional-processor';

/**
 * Avro values in the Confluent wire format (magic byte, schema id, body). Decoding a record
 * that is not a value of a registered schema throws a DecodeError.
 */
export interface ContractCodec {
  register(topic: string, schema: object): Promise<number>;
  encode(topic: string, value: unknown): Promise<Buffer>;
  decode(buffer: Buffer | null): Promise<unknown>;
}

/** Publishes connector-facing records, keyed by detection or investigation id. */
export interface ContractRecordPublisher {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  publishDetectionEvents(events: readonly DetectionEventRecord[]): Promise<void>;
  publishInvestigations(reports: readonly InvestigationRecord[]): Promise<void>;
}

/** A consumer-group member that runs until stopped. */
export interface BatchConsumer {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Time of the last batch handled, for readiness checks. */
  readonly lastActivityAt: number;
}

/** Consume → process → produce with one transaction per micro-batch (DESIGN.md §5). */
export interface PartitionProcessor extends BatchConsumer {
  /** Runs every owned partition's punctuation now. */
  wake(): void;
  readonly metrics: ProcessorMetrics;
}

/**
 * A decoded-batch consumer as the apps describe it. `decode` replaces the codec for topics
 * that are not Avro (notification commands are JSON); it throws a DecodeError for a record
 * that goes to the DLQ.
 */
export type DecodedBatchConsumerSpec = Omit<DecodedBatchConsumerOptions, 'kafka' | 'codec'>;

/** A transactional processor as the apps describe it: the same PartitionHandler contract. */
export type PartitionProcessorSpec = Omit<TransactionalProcessorOptions, 'kafka' | 'codec'>;

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
  /** Releases the log (the in-process one closes with its last user). */
  close(): Promise<void>;
}
