import { createLogger, loadConfig, type RunningApp } from '@vigil/config';
import { databaseReadiness, openSqlClient, type SqlClient } from '@vigil/control-plane';
import { openAppMessageLog } from '@vigil/kafka';
import { AppOps, type AppStartOptions } from '@vigil/ops';
import { ReadModelProjector, openReadModelWriter, projectDetectionStates } from '@vigil/search';

const EVENTS_GATHER_MS = 250;
const STATES_GATHER_MS = 1_000;
const LAG_REFRESH_MS = 10_000;

/**
 * The indexer: the log's topics in, read models out (Elasticsearch, or the SQL database in the
 * embedded mode). Wiring only.
 */
export async function startIndexer(
  env: NodeJS.ProcessEnv = process.env,
  options: AppStartOptions = {},
): Promise<RunningApp> {
  const config = loadConfig(['runtime', 'kafka', 'elasticsearch', 'database', 'ops'], env);
  const logger = createLogger('indexer', config.runtime.LOG_LEVEL);
  const ops = AppOps.create('indexer', config.ops, logger, options.ops);
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

  const groupId = `${config.kafka.VIGIL_TOPIC_PREFIX}vigil-indexer`;
  const inputs = [topics.detectionEvents, topics.investigations];
  const instruments = ops.consumer(groupId);
  const projector = new ReadModelProjector(writer.value);
  const consumer = log.createDecodedBatchConsumer({
    logger,
    groupId,
    topics: inputs,
    observer: instruments,
    // Elasticsearch shows new documents at its next refresh (each second) anyway: a quarter of a
    // second of gathering turns one bulk per event at a low rate into one per few events.
    gatherForMs: EVENTS_GATHER_MS,
    handler: async (records) => {
      const kind =
        records[0]?.topic === topics.investigations ? 'investigation' : 'detection-event';
      return { rejected: await projector.project(kind, records, Date.now()) };
    },
  });
  // The processor's state changelog feeds the detection states read model (the dry run reads
  // it). A new group reads it from the start: the compacted topic holds every detection's last
  // state. Values stay raw: they are the processor's JSON, not Avro.
  const statesGroupId = `${config.kafka.VIGIL_TOPIC_PREFIX}vigil-indexer-detection-states`;
  const statesInstruments = ops.consumer(statesGroupId);
  const states = log.createDecodedBatchConsumer({
    logger,
    groupId: statesGroupId,
    topics: [topics.detectionState],
    decode: (value) => value,
    fromBeginning: true,
    observer: statesInstruments,
    // The dry run can read a state a second old; a bulk write per processor transaction would
    // cost Elasticsearch (or the embedded database) as much as indexing the events.
    gatherForMs: STATES_GATHER_MS,
    handler: async (records) => {
      const unreadable = await projectDetectionStates(writer.value, records, Date.now());
      for (const { record, reason } of unreadable) {
        logger.warn(
          { topic: record.topic, partition: record.partition, offset: record.offset, reason },
          'detection state left out of the read model',
        );
      }
      return { rejected: [] };
    },
  });
  ops.refreshEvery('consumer lag', LAG_REFRESH_MS, async () => {
    instruments.lag(await log.consumerLag(groupId, inputs));
    statesInstruments.lag(await log.consumerLag(statesGroupId, [topics.detectionState]));
  });
  ops.dependsOn([
    ...log.readinessChecks(),
    ...writer.readinessChecks,
    ...(sql ? [databaseReadiness(sql)] : []),
  ]);
  await consumer.start();
  await states.start();
  const opsUrl = await ops.start();
  logger.info(
    { topics: [...inputs, topics.detectionState], readModels: writer.backend },
    'indexer running',
  );

  return {
    opsUrl,
    stop: async () => {
      await ops.stop();
      await states.stop();
      await consumer.stop();
      await writer.close();
      await sql?.close();
      await log.close();
    },
  };
}
