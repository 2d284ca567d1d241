import { createLogger, loadConfig, type RunningApp } from '@vigil/config';
import {
  AvroCodec,
  DecodedBatchConsumer,
  TopicCatalog,
  createKafkaClient,
  ensureTopics,
  registerContracts,
} from '@vigil/kafka';
import {
  ElasticsearchReadModelWriter,
  IndexNames,
  ReadModelProjector,
  createElasticsearchClient,
  ensureReadModels,
} from '@vigil/search';

/** The indexer: Kafka topics in, Elasticsearch read models out. Wiring only. */
export async function startIndexer(env: NodeJS.ProcessEnv = process.env): Promise<RunningApp> {
  const config = loadConfig(['runtime', 'kafka', 'elasticsearch'], env);
  const logger = createLogger('indexer', config.runtime.LOG_LEVEL);
  const kafka = createKafkaClient(
    { brokers: config.kafka.KAFKA_BROKERS, clientId: `${config.kafka.KAFKA_CLIENT_ID}-indexer` },
    logger,
  );
  const topics = new TopicCatalog(
    config.kafka.VIGIL_TOPIC_PREFIX,
    config.kafka.VIGIL_TOPIC_PARTITIONS,
  );
  const codec = new AvroCodec(config.kafka.SCHEMA_REGISTRY_URL);
  const es = createElasticsearchClient(config.elasticsearch.ELASTICSEARCH_URL);
  const names = new IndexNames(config.elasticsearch.VIGIL_INDEX_PREFIX);

  await ensureTopics(kafka, topics.all(), config.kafka.VIGIL_TOPIC_REPLICATION_FACTOR);
  await registerContracts(codec, topics);
  await ensureReadModels(es, names);

  const projector = new ReadModelProjector(new ElasticsearchReadModelWriter(es, names));
  const consumer = new DecodedBatchConsumer({
    kafka,
    codec,
    logger,
    groupId: `${config.kafka.VIGIL_TOPIC_PREFIX}vigil-indexer`,
    topics: [topics.detectionEvents, topics.investigations],
    handler: async (records) => {
      const kind =
        records[0]?.topic === topics.investigations ? 'investigation' : 'detection-event';
      return { rejected: await projector.project(kind, records, Date.now()) };
    },
  });
  await consumer.start();
  logger.info({ topics: [topics.detectionEvents, topics.investigations] }, 'indexer running');

  return {
    stop: async () => {
      await consumer.stop();
      await es.close();
    },
  };
}
