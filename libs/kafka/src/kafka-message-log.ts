import type { Kafka } from 'kafkajs';
import { AvroCodec } from './avro-codec';
import { ContractPublisher } from './contract-publisher';
import { DecodedBatchConsumer } from './decoded-batch-consumer';
import { ensureTopics } from './ensure-topics';
import type {
  BatchConsumer,
  ContractRecordPublisher,
  DecodedBatchConsumerSpec,
  MessageLog,
  PartitionProcessor,
  PartitionProcessorSpec,
} from './message-log';
import type { TopicCatalog, TopicSpec } from './topic-catalog';
import { TransactionalProcessor } from './transactional-processor';

/** The MessageLog port on Kafka and the schema registry: the classes the apps used directly. */
export class KafkaMessageLog implements MessageLog {
  readonly kind = 'kafka' as const;
  readonly codec: AvroCodec;

  constructor(
    readonly kafka: Kafka,
    schemaRegistryUrl: string,
  ) {
    this.codec = new AvroCodec(schemaRegistryUrl);
  }

  ensureTopics(topics: readonly TopicSpec[], replicationFactor = 1): Promise<string[]> {
    return ensureTopics(this.kafka, topics, replicationFactor);
  }

  createContractPublisher(topics: TopicCatalog): ContractRecordPublisher {
    return new ContractPublisher(this.kafka, this.codec, topics);
  }

  createDecodedBatchConsumer(spec: DecodedBatchConsumerSpec): BatchConsumer {
    return new DecodedBatchConsumer({ ...spec, kafka: this.kafka, codec: this.codec });
  }

  createTransactionalProcessor(spec: PartitionProcessorSpec): PartitionProcessor {
    return new TransactionalProcessor({ ...spec, kafka: this.kafka, codec: this.codec });
  }

  /** Producers and consumers close with their own stop(); the client holds no connection. */
  async close(): Promise<void> {}
}
