import { createLogger, loadConfig, type RunningApp } from '@vigil/config';
import {
  SettingsCache,
  SqlNotificationSettingsStore,
  databaseReadiness,
  openSettingsChangeFeed,
  openSqlClient,
  runMigrations,
} from '@vigil/control-plane';
import { openAppMessageLog, type ProcessorMetrics } from '@vigil/kafka';
import { AppOps, type AppStartOptions } from '@vigil/ops';
import { DetectionPartition } from './detection-partition';
import { InvestigationPartition } from './investigation-partition';

const LAG_REFRESH_MS = 10_000;

/**
 * The stream processor: detection events and investigations in, notification commands and
 * per-detection state out, one log transaction per micro-batch (DESIGN.md §5). Wiring only.
 */
export interface RunningStreamProcessor extends RunningApp {
  metrics(): ProcessorMetrics;
}

export async function startStreamProcessor(
  env: NodeJS.ProcessEnv = process.env,
  options: AppStartOptions = {},
): Promise<RunningStreamProcessor> {
  const config = loadConfig(['runtime', 'kafka', 'database', 'processor', 'ops'], env);
  const logger = createLogger('stream-processor', config.runtime.LOG_LEVEL);
  const ops = AppOps.create('stream-processor', config.ops, logger, options.ops);
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

  const groupId = `${config.kafka.VIGIL_TOPIC_PREFIX}vigil-stream-processor`;
  const inputs = [topics.detectionEvents, topics.investigations];
  const instruments = ops.processor(groupId);
  const onDecisions = instruments.decided.bind(instruments);
  const detectionPartitions = new Set<DetectionPartition>();
  const stateOptions = { dedupWindowSize: config.processor.PROCESSOR_DEDUP_WINDOW };
  const processor = log.createTransactionalProcessor({
    logger,
    groupId,
    topics: inputs,
    changelogTopic: topics.detectionState,
    punctuateIntervalMs: config.processor.PROCESSOR_TIMER_INTERVAL_MS,
    maxMessageBytes: new Map(
      topics.all().flatMap((t) => (t.maxMessageBytes ? [[t.name, t.maxMessageBytes]] : [])),
    ),
    partitionsConsumedConcurrently: config.processor.PROCESSOR_PARTITION_CONCURRENCY,
    observer: instruments,
    createPartitionHandler: (topic, partition, changelog, now) => {
      if (topic === topics.investigations) {
        return new InvestigationPartition({ topics, partition, settings, onDecisions }, changelog);
      }
      // Both topics' partition p restore from changelog partition p: count it once.
      instruments.stateRestored(changelog.size);
      const detections = new DetectionPartition(
        {
          topics,
          partition,
          settings,
          stateOptions,
          onClose: (p) => detectionPartitions.delete(p),
          onDecisions,
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
  ops.onStop(
    instruments.trackDetectionsInMemory(() => {
      let held = 0;
      for (const partition of detectionPartitions) held += partition.size;
      return held;
    }),
  );
  ops.refreshEvery('consumer lag', LAG_REFRESH_MS, async () =>
    instruments.lag(await log.consumerLag(groupId, inputs)),
  );
  ops.dependsOn([...log.readinessChecks(), databaseReadiness(sql)]);

  await processor.start();
  const opsUrl = await ops.start();
  logger.info({ topics: inputs }, 'stream processor running');

  return {
    opsUrl,
    metrics: () => processor.metrics,
    stop: async () => {
      unsubscribe();
      // The settings listener first: the processor reads settings from memory, and a step that
      // fails or hangs below (a server gone) must not leave the listener reconnecting.
      await settings.stop();
      await ops.stop();
      try {
        await processor.stop();
      } finally {
        await sql.close();
        await log.close();
      }
    },
  };
}
