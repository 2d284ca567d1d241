import { createLogger, loadConfig, type RunningApp } from '@vigil/config';
import { openSqlClient, type SqlClient } from '@vigil/control-plane';
import { openAppMessageLog } from '@vigil/kafka';
import { ReadModelProjector, openReadModelWriter } from '@vigil/search';

/**
 * The indexer: the log's topics in, read models out (Elasticsearch, or the SQL database in the
 * embedded mode). Wiring only.
 */
export async function startIndexer(env: NodeJS.ProcessEnv = process.env): Promise<RunningApp> {
  const config = loadConfig(['runtime', 'kafka', 'elasticsearch', 'database'], env);
  const logger = createLogger('indexer', config.runtime.LOG_LEVEL);
  const { log, topics } = await openAppMessageLog(config.kafka, 'indexer', logger);
  // The SQL database holds the read models only when there is no Elasticsearch.
  const sql: SqlClient | null = config.elasticsearch.ELASTICSEARCH_URL
    ? null
    : await openSqlClient({
        databaseUrl: config.database.DATABASE_URL,
        poolSize: config.database.DATABASE_POOL_SIZE,
        dataDir: config.database.VIGIL_DATA_DIR,
        logger,
        applicationName: 'vigil-indexer',
      });
  const writer = await openReadModelWriter({
    elasticsearchUrl: config.elasticsearch.ELASTICSEARCH_URL,
    indexPrefix: config.elasticsearch.VIGIL_INDEX_PREFIX,
    sql: sql as SqlClient,
  });

  const projector = new ReadModelProjector(writer.value);
  const consumer = log.createDecodedBatchConsumer({
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
  logger.info(
    { topics: [topics.detectionEvents, topics.investigations], readModels: writer.backend },
    'indexer running',
  );

  return {
    stop: async () => {
      await consumer.stop();
      await writer.close();
      await sql?.close();
      await log.close();
    },
  };
}
