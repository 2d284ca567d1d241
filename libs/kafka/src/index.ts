export { createKafkaClient, type KafkaSettings } from './create-kafka-client';
export { TopicCatalog, type TopicSpec } from './topic-catalog';
export { ensureTopics } from './ensure-topics';
export { AvroCodec, DecodeError } from './avro-codec';
export { DeadLetterPublisher, type DeadLetter } from './dead-letter-publisher';
export { registerContracts } from './register-contracts';
export {
  DecodedBatchConsumer,
  type DecodedRecord,
  type DecodedBatchHandler,
  type DecodedBatchConsumerOptions,
} from './decoded-batch-consumer';
export { ContractPublisher } from './contract-publisher';
export { BrokerUnavailableError } from './broker-unavailable-error';
export { nextOffset, offsetsToCommit, reachedEnd, restoreTargets } from './partition-offsets';
export { readChangelog, type ChangelogEntries } from './read-changelog';
export {
  TransactionalProcessor,
  type OutputRecord,
  type PartitionHandler,
  type ProcessedBatch,
  type ProcessorMetrics,
  type Punctuation,
  type TransactionalProcessorOptions,
} from './transactional-processor';
export {
  type BatchConsumer,
  type ContractCodec,
  type ContractRecordPublisher,
  type DecodedBatchConsumerSpec,
  type MessageLog,
  type PartitionProcessor,
  type PartitionProcessorSpec,
} from './message-log';
export { KafkaMessageLog } from './kafka-message-log';
export { openInProcessLog, type InProcessLogOptions } from './open-in-process-log';
export { createMessageLog, type MessageLogSettings } from './create-message-log';
export { LocalAvroCodec } from './local-avro-codec';
export { partitionForKey } from './partition-for-key';
export { openAppMessageLog, type AppMessageLog } from './open-app-message-log';
