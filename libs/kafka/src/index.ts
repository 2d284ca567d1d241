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
