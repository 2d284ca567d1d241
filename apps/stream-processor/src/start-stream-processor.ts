import { createLogger, loadConfig, type RunningApp } from '@vigil/config';
import {
  SettingsCache,
  SqlNotificationSettingsStore,
  openSettingsChangeFeed,
  openSqlClient,
  runMigrations,
} from '@vigil/control-plane';
import { openAppMessageLog, type ProcessorMetrics } from '@vigil/kafka';
import { DetectionPartition } from './detection-partition';
import { InvestigationPartition } from './investigation-partition';

/**
 * The stream processor: detection events and investigations in, notification commands and
 * per-detection state out, one log transaction per micro-batch (DESIGN.md §5). Wiring only.
 */
export interface RunningStreamProcessor extends RunningApp {
  metrics(): ProcessorMetrics;
}

export async function startStreamProcessor(
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningStreamProcessor> {
  const config = loadConfig(['runtime', 'kafka', 'database', 'processor'], env);
  const logger = createLogger('stream-processor', config.runtime.LOG_LEVEL);
  const { log, topics } = await openAppMessageLog(config.kafka, 'stream-processor', logger);

  const sql = await openSqlClient({
    databaseUrl: config.database.DATABASE_URL,
    poolSize: 2,
    dataDir: config.database.VIGIL_DATA_DIR,
    logger,
    applicationName: 'vigil-stream-processor',
  });
  await runMigrations(sql, { logger });
  const settings = new SettingsCache(
    new SqlNotificationSettingsStore(sql),
    openSettingsChangeFeed({ databaseUrl: config.database.DATABASE_URL, sql, logger }),
    { logger },
  );
  await settings.start();

  const detectionPartitions = new Set<DetectionPartition>();
  const stateOptions = { dedupWindowSize: config.processor.PROCESSOR_DEDUP_WINDOW };
  const processor = log.createTransactionalProcessor({
    logger,
    groupId: `${config.kafka.VIGIL_TOPIC_PREFIX}vigil-stream-processor`,
    topics: [topics.detectionEvents, topics.investigations],
    changelogTopic: topics.detectionState,
    punctuateIntervalMs: config.processor.PROCESSOR_TIMER_INTERVAL_MS,
    maxMessageBytes: new Map(
      topics.all().flatMap((t) => (t.maxMessageBytes ? [[t.name, t.maxMessageBytes]] : [])),
    ),
    partitionsConsumedConcurrently: config.processor.PROCESSOR_PARTITION_CONCURRENCY,
    createPartitionHandler: (topic, partition, changelog, now) => {
      if (topic === topics.investigations) {
        return new InvestigationPartition({ topics, partition, settings }, changelog);
      }
      const detections = new DetectionPartition(
        {
          topics,
          partition,
          settings,
          stateOptions,
          onClose: (p) => detectionPartitions.delete(p),
        },
        changelog,
        now,
      );
      detectionPartitions.add(detections);
      return detections;
    },
  });
  const unsubscribe = settings.subscribe((change) => {
    const detectionId = change.scope === 'detection' ? change.detectionId : null;
    for (const partition of detectionPartitions) partition.settingsChanged(detectionId);
    processor.wake();
  });

  await processor.start();
  logger.info(
    { topics: [topics.detectionEvents, topics.investigations] },
    'stream processor running',
  );

  return {
    metrics: () => processor.metrics,
    stop: async () => {
      unsubscribe();
      await processor.stop();
      await settings.stop();
      await sql.close();
      await log.close();
    },
  };
}
