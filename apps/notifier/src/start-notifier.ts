import { createLogger, loadConfig, type RunningApp } from '@vigil/config';
import {
  AuditRetention,
  FallbackDestinationService,
  SqlAuditLog,
  SqlUserStore,
  SqlDeliveryStore,
  SqlDigestStore,
  WebhookProviderService,
  assertKeyOpensStoredSecrets,
  loadSecretBox,
  databaseReadiness,
  openSqlClient,
  DELIVERY_CLAIM_SESSION_SETTINGS,
  parseRetrySchedule,
  runMigrations,
  sealPlaintextSecrets,
  secretsKeySettings,
} from '@vigil/control-plane';
import { openAppMessageLog } from '@vigil/kafka';
import { AppOps, type AppStartOptions } from '@vigil/ops';
import { CommandConsumer } from './command-consumer';
import { CreateDeliveries } from './create-deliveries';
import { DeliveryWorkerPool } from './delivery-worker-pool';
import { TargetConcurrencyLimits } from './target-concurrency-limits';
import { digestDelivery } from './digest-delivery';
import { DigestCloser } from './digest-closer';
import { EmailSender } from './email-sender';
import { EndpointHealthMonitor } from './endpoint-health-monitor';
import { FallbackSweeper } from './fallback-sweeper';
import { ProviderDirectory } from './provider-directory';
import { WebhookSender } from './webhook-sender';

const POLL_INTERVAL_MS = 250;
const SMTP_SEND_BOUND_MS = 60_000;
const LAG_REFRESH_MS = 10_000;
const BACKLOG_REFRESH_MS = 15_000;
/** Dead deliveries wake the fallback sweep at once; this is its safety net. */
const FALLBACK_SWEEP_MS = 5_000;
const HEALTH_SWEEP_MS = 10_000;

/**
 * The notifier: notification commands in, deliveries in Postgres, webhooks and emails out.
 * Wiring only.
 */
export async function startNotifier(
  env: NodeJS.ProcessEnv = process.env,
  options: AppStartOptions = {},
): Promise<RunningApp> {
  const config = loadConfig(
    ['runtime', 'kafka', 'database', 'notifier', 'secrets', 'audit', 'ops'],
    env,
  );
  const settings = config.notifier;
  const logger = createLogger('notifier', config.runtime.LOG_LEVEL);
  // Before anything opens: without a usable key, deliveries could not be signed.
  const secrets = loadSecretBox(secretsKeySettings(config));
  logger.info(
    { keyId: secrets.box.keyId, source: secrets.source, generated: secrets.generated },
    'webhook secrets key loaded',
  );
  const ops = AppOps.create('notifier', config.ops, logger, options.ops);
  const instruments = ops.notifier();
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
    sessionSettings: DELIVERY_CLAIM_SESSION_SETTINGS,
  });
  const retention = new AuditRetention({
    log: new SqlAuditLog(sql),
    retentionDays: config.audit.AUDIT_RETENTION_DAYS,
    logger,
  });
  try {
    await runMigrations(sql, { logger });
    await assertKeyOpensStoredSecrets(sql, secrets.box);
    await sealPlaintextSecrets(sql, secrets.box, logger);
  } catch (error) {
    await sql.close();
    await log.close();
    throw error;
  }
  const store = new SqlDeliveryStore(sql);
  const digests = new SqlDigestStore(sql);
  const providers = new WebhookProviderService(sql, {
    policy,
    logger,
    secrets: secrets.box,
    secretOverlapMs: config.secrets.WEBHOOK_SECRET_OVERLAP,
  });
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
  const fallbacks = new FallbackSweeper({
    sql,
    fallbacks: new FallbackDestinationService(sql),
    providers,
    appUrl: settings.APP_URL,
    intervalMs: FALLBACK_SWEEP_MS,
    onCreated: () => pool.wake(),
    logger,
  });
  const health = new EndpointHealthMonitor({
    sql,
    providers,
    users: new SqlUserStore(sql),
    rules: {
      failingForMs: settings.NOTIFIER_DISABLE_AFTER_FAILING_FOR,
      deadInARow: settings.NOTIFIER_DISABLE_AFTER_DEAD_IN_A_ROW,
    },
    appUrl: settings.APP_URL,
    intervalMs: HEALTH_SWEEP_MS,
    onNoticesQueued: () => pool.wake(),
    logger,
  });
  const pool: DeliveryWorkerPool = new DeliveryWorkerPool({
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
    observer: {
      attempted: (channel, outcome, seconds) => instruments.attempted(channel, outcome, seconds),
      finished: (channel, status) => {
        instruments.finished(channel, status);
        if (status === 'dead') fallbacks.wake();
      },
      digestSent: () => instruments.digestSent(),
    },
    heartbeat: ops.loop('delivery worker pool'),
  });
  const closer = new DigestCloser({
    digests,
    graceMs: settings.NOTIFIER_DIGEST_GRACE_MS,
    intervalMs: Math.min(5_000, Math.max(250, Math.floor(settings.NOTIFIER_DIGEST_GRACE_MS / 2))),
    render: (group) => digestDelivery(group, settings.APP_URL),
    onClosed: () => pool.wake(),
    logger,
  });
  const createDeliveries = new CreateDeliveries(
    sql,
    store,
    digests,
    providers,
    settings.APP_URL,
    pool,
  );
  const groupId = `${config.kafka.VIGIL_TOPIC_PREFIX}vigil-notifier`;
  const commands = ops.consumer(groupId);
  const consumer = new CommandConsumer({
    log,
    groupId,
    topic: topics.notificationCommands,
    logger,
    observer: commands,
    handler: async (commands) => {
      const { rejected, created } = await createDeliveries.execute(commands);
      instruments.skipped(created.skipped);
      // Leased ones are already on their way; pending ones wait for a claim.
      if (created.created > created.skipped + created.leased.length) pool.wake();
      return { rejected };
    },
  });

  ops.onStop(instruments.trackInFlight(() => pool.inFlight));
  ops.refreshEvery('consumer lag', LAG_REFRESH_MS, async () =>
    commands.lag(await log.consumerLag(groupId, [topics.notificationCommands])),
  );
  ops.refreshEvery('delivery backlog', BACKLOG_REFRESH_MS, async () =>
    instruments.backlog(await store.countBacklog()),
  );
  ops.refreshEvery('disabled providers', BACKLOG_REFRESH_MS, async () =>
    instruments.providersDisabled((await providers.listDisabled()).length),
  );
  ops.dependsOn([
    ...log.readinessChecks({ schemaRegistry: false }),
    databaseReadiness(sql),
    emails.readiness(),
  ]);

  pool.start();
  closer.start();
  fallbacks.start();
  health.start();
  // The notifier is the long-running background worker of every deployment (the web app may
  // not run at all, or scale to zero): it purges the audit log past its retention, daily.
  retention.start();
  await consumer.start();
  const opsUrl = await ops.start();
  logger.info(
    { topic: topics.notificationCommands, concurrency: settings.NOTIFIER_CONCURRENCY },
    'notifier running',
  );

  return {
    opsUrl,
    stop: async () => {
      // The database loops first, together: each ends its round, and a step below that fails
      // or hangs on a server that is gone (Kafka) must not leave them running. Deliveries the
      // consumer still creates stay pending in the outbox for the next start.
      await Promise.all([
        pool.stop(),
        closer.stop(),
        retention.stop(),
        fallbacks.stop(),
        health.stop(),
      ]);
      await ops.stop();
      await consumer.stop();
      webhooks.close();
      emails.close();
      await sql.close();
      await log.close();
    },
  };
}
