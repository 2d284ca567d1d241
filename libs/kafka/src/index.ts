// The port: the message log and everything it speaks.
export { type MessageLog } from './port/message-log';
export { type ContractCodec } from './port/contract-codec';
export { type ContractRecordPublisher } from './port/contract-record-publisher';
export {
  type BatchConsumer,
  type DecodedBatchConsumerSpec,
  type DecodedBatchHandler,
} from './port/batch-consumer';
export { type PartitionProcessor, type PartitionProcessorSpec } from './port/partition-processor';
export {
  type ChangelogEntries,
  type OutputRecord,
  type PartitionHandler,
  type ProcessedBatch,
  type Punctuation,
} from './port/partition-handler';
export { type ProcessorMetrics } from './port/processor-metrics';
export {
  unobserved,
  type ConsumerObserver,
  type ProcessorObserver,
} from './port/consumer-observer';
export { type PartitionLag } from './port/partition-lag';
export { type LogRecord, type RecordHeaders } from './port/log-record';
export { type DecodedRecord } from './port/decoded-record';
export { DecodeError } from './port/decode-error';
export { type DeadLetter, type DeadLetterReason, type RejectedRecord } from './port/dead-letter';
export { TopicCatalog, type TopicSpec } from './port/topic-catalog';

// Opening the log an app runs on, by configuration.
export { createMessageLog, type MessageLogSettings } from './create-message-log';
export { openAppMessageLog, type AppMessageLog } from './open-app-message-log';
export { registerContracts } from './register-contracts';

// Kafka and the schema registry.
export { createKafkaClient, type KafkaSettings } from './kafka/create-kafka-client';
export { stopRequestQueueSpin } from './kafka/stop-request-queue-spin';
export { KafkaMessageLog } from './kafka/kafka-message-log';
export { ensureTopics } from './kafka/ensure-topics';
export { AvroCodec } from './kafka/avro-codec';
export { ContractPublisher } from './kafka/contract-publisher';
export { BrokerUnavailableError } from './kafka/broker-unavailable-error';
export { DeadLetterPublisher } from './kafka/dead-letter-publisher';
export {
  DecodedBatchConsumer,
  type DecodedBatchConsumerOptions,
} from './kafka/decoded-batch-consumer';
export {
  TransactionalProcessor,
  type TransactionalProcessorOptions,
} from './kafka/transactional-processor';
export { readChangelog } from './kafka/read-changelog';
export {
  nextOffset,
  offsetsToCommit,
  partitionLags,
  reachedEnd,
  restoreTargets,
} from './kafka/partition-offsets';
export { chunkBySize } from './kafka/output-chunks';
export { createTransactionalProducer } from './kafka/create-transactional-producer';

// The in-process log of the embedded mode.
export { openInProcessLog, type InProcessLogOptions } from './in-process/open-in-process-log';
export { LocalAvroCodec } from './in-process/local-avro-codec';
export { partitionForKey } from './in-process/partition-for-key';
