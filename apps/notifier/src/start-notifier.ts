import { createLogger, loadConfig, type RunningApp } from '@vigil/config';
import {
  SqlDeliveryStore,
  WebhookProviderService,
  openSqlClient,
  parseRetrySchedule,
  runMigrations,
} from '@vigil/control-plane';
import { openAppMessageLog } from '@vigil/kafka';
import { CommandConsumer } from './command-consumer';
import { CreateDeliveries } from './create-deliveries';
import { DeliveryWorkerPool } from './delivery-worker-pool';
import { TargetConcurrencyLimits } from './target-concurrency-limits';
import { digestDelivery } from './digest-delivery';
import { DigestCloser } from './digest-closer';
import { EmailSender } from './email-sender';
import { ProviderDirectory } from './provider-directory';
import { WebhookSender } from './webhook-sender';

const POLL_INTERVAL_MS = 250;
const SMTP_SEND_BOUND_MS = 60_000;

/**
 * The notifier: notification commands in, deliveries in Postgres, webhooks and emails out.
 * Wiring only.
 */
export async function startNotifier(env: NodeJS.ProcessEnv = process.env): Promise<RunningApp> {
  const config = loadConfig(['runtime', 'kafka', 'database', 'notifier'], env);
  const settings = config.notifier;
  const logger = createLogger('notifier', config.runtime.LOG_LEVEL);
  const retrySchedule = parseRetrySchedule(settings.NOTIFIER_RETRY_SCHEDULE);
  const policy = {
    allowPrivate: settings.NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS,
    allowlist: settings.NOTIFIER_WEBHOOK_TARGET_ALLOWLIST,
  };

  const { log, topics } = await openAppMessageLog(config.kafka, 'notifier', logger);

  const sql = await openSqlClient({
    databaseUrl: config.database.DATABASE_URL,
    poolSize: config.database.DATABASE_POOL_SIZE,
    dataDir: config.database.VIGIL_DATA_DIR,
    logger,
    applicationName: 'vigil-notifier',
  });
  await runMigrations(sql, { logger });
  const store = new SqlDeliveryStore(sql);
  const providers = new WebhookProviderService(sql, { policy, logger });
  const directory = new ProviderDirectory(providers);

  const webhooks = new WebhookSender({
    policy,
    timeoutMs: settings.NOTIFIER_WEBHOOK_TIMEOUT_MS,
    provider: (id) => directory.get(id),
  });
  const emails = new EmailSender({
    host: settings.SMTP_HOST,
    port: settings.SMTP_PORT,
    secure: settings.SMTP_SECURE,
    user: settings.SMTP_USER,
    password: settings.SMTP_PASSWORD,
    from: settings.SMTP_FROM,
  });
  const pool = new DeliveryWorkerPool({
    store,
    senders: { webhook: (d) => webhooks.send(d), email: (d) => emails.send(d) },
    concurrency: settings.NOTIFIER_CONCURRENCY,
    targetLimits: new TargetConcurrencyLimits({
      initial: settings.NOTIFIER_CONCURRENCY_PER_TARGET,
      max: Math.min(
        settings.NOTIFIER_CONCURRENCY,
        settings.NOTIFIER_CONCURRENCY_PER_TARGET_MAX ??
          Math.max(
            settings.NOTIFIER_CONCURRENCY_PER_TARGET,
            Math.floor(settings.NOTIFIER_CONCURRENCY / 2),
          ),
      ),
      // A webhook answer slower than a tenth of the timeout is a receiver under strain.
      slowMs: settings.NOTIFIER_WEBHOOK_TIMEOUT_MS / 10,
    }),
    retrySchedule,
    // After a crash, a leased delivery waits for its lease to run out: webhooks, bounded by
    // their timeout, come back within seconds rather than behind SMTP's longer bound.
    lease: {
      webhook: 2 * settings.NOTIFIER_WEBHOOK_TIMEOUT_MS + 10_000,
      email: 2 * SMTP_SEND_BOUND_MS + 30_000,
    },
    pollIntervalMs: POLL_INTERVAL_MS,
    logger,
  });
  const closer = new DigestCloser({
    store,
    graceMs: settings.NOTIFIER_DIGEST_GRACE_MS,
    intervalMs: Math.min(5_000, Math.max(250, Math.floor(settings.NOTIFIER_DIGEST_GRACE_MS / 2))),
    render: (group) => digestDelivery(group, settings.APP_URL),
    onClosed: () => pool.wake(),
    logger,
  });
  const createDeliveries = new CreateDeliveries(sql, store, providers, settings.APP_URL);
  const consumer = new CommandConsumer({
    log,
    groupId: `${config.kafka.VIGIL_TOPIC_PREFIX}vigil-notifier`,
    topic: topics.notificationCommands,
    logger,
    handler: async (commands) => {
      const { rejected, created } = await createDeliveries.execute(commands);
      if (created > 0) pool.wake();
      return { rejected };
    },
  });

  pool.start();
  closer.start();
  await consumer.start();
  logger.info(
    { topic: topics.notificationCommands, concurrency: settings.NOTIFIER_CONCURRENCY },
    'notifier running',
  );

  return {
    stop: async () => {
      await consumer.stop();
      await closer.stop();
      await pool.stop();
      webhooks.close();
      emails.close();
      await sql.close();
      await log.close();
    },
  };
}
