import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_OPS_PORTS, createLogger, loadConfig, type RunningApp } from '@vigil/config';
import {
  loadSecretBox,
  openSqlClient,
  secretsKeySettings,
  type WebhookTargetPolicy,
} from '@vigil/control-plane';
import { OpsRuntime } from '@vigil/ops';
import { startApi } from '../../api/src/start-api';
import { startIndexer } from '../../indexer/src/start-indexer';
import { startIngest } from '../../ingest/src/start-ingest';
import { startNotifier } from '../../notifier/src/start-notifier';
import { startStreamProcessor } from '../../stream-processor/src/start-stream-processor';
import { startWeb } from '../../web/src/start-web';
import { startDemoInbox, type RunningDemoInbox } from './demo-inbox/start-demo-inbox';
import { runDemo } from './demo/run-demo';
import { withInbox } from './with-inbox';

export interface AllInOneUrls {
  readonly web: string;
  readonly api: string;
  readonly ingest: string;
  readonly inbox: string;
  /** Where the built-in receiver takes webhooks: `${inbox}/webhooks/<channel>`. */
  readonly webhookReceiver: string;
  readonly smtp: string;
  /** The ops listener: /metrics (every app's series, labelled by app), /livez, /readyz. */
  readonly ops: string;
}

export interface RunningAllInOne extends RunningApp {
  readonly url: string;
  readonly urls: AllInOneUrls;
  readonly inbox: RunningDemoInbox;
  /** The environment every app was started with (the inbox's addresses filled in). */
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Every Vigil app in one process, plus the local inbox (webhook receiver and mail catcher).
 * Consumers start before producers so nothing waits on a missing reader; stopping runs in
 * reverse order.
 */
export async function startAllInOne(
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningAllInOne> {
  const config = loadConfig(['runtime', 'demoInbox', 'database', 'notifier', 'ops'], env);
  const logger = createLogger('all-in-one', config.runtime.LOG_LEVEL);
  // One registry, one set of probes and one listener for every app of the process.
  const ops = new OpsRuntime({
    metrics: config.ops.VIGIL_METRICS === 'on',
    processApp: 'all-in-one',
    liveness: { stallMs: config.ops.OPS_LOOP_STALL_MS, stepMaxMs: config.ops.OPS_STEP_MAX_MS },
    logger,
  });
  const shared = { ops };
  const started: RunningApp[] = [];
  const stopAll = async () => {
    for (const app of [...started].reverse()) {
      try {
        await app.stop();
      } catch (error) {
        logger.error({ err: error }, 'an app did not stop cleanly');
      }
    }
  };
  // `npm run demo` asks this process to feed the samples (the embedded database is this
  // process's alone); the key file proves the caller may read the data folder.
  const demoKey = randomBytes(24).toString('base64url');
  let runDemoHere: (() => Promise<string[]>) | null = null;
  try {
    const inbox = await startDemoInbox({
      httpPort: config.demoInbox.DEMO_INBOX_PORT,
      smtpPort: config.demoInbox.DEMO_SMTP_PORT,
      capacity: config.demoInbox.DEMO_INBOX_CAPACITY,
      demo: {
        key: demoKey,
        run: () => (runDemoHere ? runDemoHere() : Promise.reject(new Error('Vigil is starting'))),
      },
    });
    started.push(inbox);
    const appEnv = withInbox(env, inbox);
    started.push(await startIndexer(appEnv, shared));
    started.push(await startStreamProcessor(appEnv, shared));
    started.push(await startNotifier(appEnv, shared));
    const ingest = await startIngest(appEnv, shared);
    started.push(ingest);
    const api = await startApi(appEnv, shared);
    started.push(api);
    const web = await startWeb(appEnv, shared);
    started.push(web);
    const opsUrl = await ops.listen(
      config.ops.OPS_HOST,
      config.ops.OPS_PORT ?? DEFAULT_OPS_PORTS['all-in-one'],
    );
    // Stopped first: probes fail while the apps stop.
    started.push({ stop: () => ops.close() });
    runDemoHere = () =>
      feedSamples({
        env: appEnv,
        databaseUrl: config.database.DATABASE_URL,
        dataDir: config.database.VIGIL_DATA_DIR,
        ingestUrl: ingest.url!,
        inboxUrl: inbox.url,
        webUrl: web.url!,
        policy: {
          allowPrivate: config.notifier.NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS,
          allowlist: [...config.notifier.NOTIFIER_WEBHOOK_TARGET_ALLOWLIST, inbox.endpoint],
        },
      });
    writeDemoKey(config.database.VIGIL_DATA_DIR, demoKey);
    const urls: AllInOneUrls = {
      web: web.url!,
      api: api.url!,
      ingest: ingest.url!,
      inbox: inbox.url,
      webhookReceiver: inbox.webhookUrl('<channel>'),
      smtp: `${inbox.smtpHost}:${inbox.smtpPort}`,
      ops: opsUrl,
    };
    return { url: web.url!, opsUrl, urls, inbox, env: appEnv, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

interface FeedSamplesOptions {
  env: NodeJS.ProcessEnv;
  databaseUrl: string | undefined;
  dataDir: string;
  ingestUrl: string;
  inboxUrl: string;
  webUrl: string;
  policy: WebhookTargetPolicy;
}

/** The sample data of `npm run demo`, fed in this process; returns what to tell the caller. */
async function feedSamples(options: FeedSamplesOptions): Promise<string[]> {
  const { box } = loadSecretBox(
    secretsKeySettings(loadConfig(['secrets', 'database', 'runtime'], options.env)),
  );
  const sql = await openSqlClient({
    databaseUrl: options.databaseUrl,
    poolSize: 2,
    dataDir: options.dataDir,
    applicationName: 'vigil-demo',
  });
  const lines: string[] = [];
  try {
    await runDemo({
      sql,
      ingestUrl: options.ingestUrl,
      inboxUrl: options.inboxUrl,
      webUrl: options.webUrl,
      policy: options.policy,
      secrets: box,
      log: (message) => lines.push(message),
    });
  } finally {
    await sql.close();
  }
  return lines;
}

/** Where `npm run demo` finds the key of the running process: the data folder, owner only. */
export function demoKeyFile(dataDir: string): string {
  return join(dataDir, 'demo-key');
}

function writeDemoKey(dataDir: string, key: string): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(demoKeyFile(dataDir), key, { mode: 0o600 });
}

/** What a newcomer needs once everything runs: where to look and how to get in. */
export function startupBanner(
  urls: AllInOneUrls,
  env: NodeJS.ProcessEnv,
  smtpIsInbox: boolean,
): string {
  const admin = env.VIGIL_ADMIN_EMAIL;
  const lines = [
    'Vigil is running (all apps in one process). Ctrl-C stops it.',
    `  web application  ${urls.web}`,
    admin === undefined
      ? '  sign in          set VIGIL_ADMIN_EMAIL and VIGIL_ADMIN_PASSWORD to create the first admin'
      : `  sign in          ${admin}, password in .vigil/admin-password (or VIGIL_ADMIN_PASSWORD)`,
    `  query API        ${urls.api}/api-key/v1`,
    `  ingest           ${urls.ingest}/ingest/v1`,
    `  ops              ${urls.ops}/metrics, /livez, /readyz`,
    `  webhooks         ${urls.inbox}/webhooks  (receiver: ${urls.webhookReceiver})`,
    smtpIsInbox
      ? `  mail             ${urls.inbox}/mail  (SMTP ${urls.smtp})`
      : `  mail             sent to SMTP ${env.SMTP_HOST}:${env.SMTP_PORT ?? ''}; catcher at ${urls.inbox}/mail (SMTP ${urls.smtp})`,
    '  a token          Settings > Access > API Keys in the web application, or',
    env.DATABASE_URL
      ? '                   npm run vigil -- token create --name demo --preset write --expires 30d'
      : '                   with Vigil stopped: npm run vigil -- token create --name demo --preset write --expires 30d',
    '  sample data      npm run demo',
  ];
  return lines.join('\n');
}
