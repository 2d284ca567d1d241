import { lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kafka } from 'kafkajs';
import type { DestinationStream } from 'pino';
import { Webhook } from 'standardwebhooks';
import { createLogger, routeLogsTo, type RunningApp } from '@vigil/config';
import {
  WebhookProviderService,
  loadSecretBox,
  openSqlClient,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import { TopicCatalog, createKafkaClient } from '@vigil/kafka';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { eventually } from '../support/http-client';
import { CommandProducer, aWebhookDecision, commandOf } from '../support/notification-commands';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';

jest.setTimeout(120_000);

/** Every file under `root` (the folder included), with its mode. */
function walk(root: string): { path: string; directory: boolean; mode: number }[] {
  const stats = lstatSync(root);
  const entry = { path: root, directory: stats.isDirectory(), mode: stats.mode & 0o777 };
  if (!stats.isDirectory()) return [entry];
  return [entry, ...readdirSync(root).flatMap((name) => walk(join(root, name)))];
}

/** The files whose bytes contain `needle` anywhere (binary-safe, like `grep -a`). */
function filesContaining(root: string, needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  return walk(root)
    .filter((f) => !f.directory && readFileSync(f.path).includes(bytes))
    .map((f) => f.path);
}

function verifies(secret: string, request: ReceivedWebhook): boolean {
  try {
    new Webhook(secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * Secrets at rest in the embedded database: providers enrolled and rotated, webhooks delivered
 * and signed, then the whole data folder (PGlite's heap and WAL included) and every log line are
 * searched for the secrets. Run under umask 022, every file must be 0600 and folder 0700.
 */
describe('webhook secrets at rest in the embedded data folder', () => {
  const lines: string[] = [];
  const capture: DestinationStream = { write: (line: string) => void lines.push(line) };
  const dataDir = join(mkdtempSync(join(tmpdir(), 'vigil-at-rest-')), 'data');
  const previousUmask = process.umask(0o022);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VIGIL_DATA_DIR: dataDir,
    LOG_LEVEL: 'trace',
    NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
    NOTIFIER_RETRY_SCHEDULE: '200ms',
  };
  // The embedded database, and the key the embedded mode generates for itself.
  delete env.DATABASE_URL;
  delete env.VIGIL_SECRETS_KEY;
  delete env.VIGIL_SECRETS_KEY_FILE;

  let notifier: RunningApp | undefined;
  let sql: SqlClient | undefined;
  let receiver: WebhookReceiver;
  let kafka: Kafka;
  let commands: CommandProducer;

  beforeAll(async () => {
    routeLogsTo(capture);
    receiver = await WebhookReceiver.start();
    notifier = await startNotifier(env);
    kafka = createKafkaClient(
      { brokers: process.env.KAFKA_BROKERS!.split(','), clientId: 'secrets-at-rest' },
      createLogger('secrets-at-rest', 'warn'),
    );
    commands = new CommandProducer(
      kafka,
      new TopicCatalog(process.env.VIGIL_TOPIC_PREFIX!, 3).notificationCommands,
    );
    await commands.connect();
  });

  afterAll(async () => {
    await commands?.disconnect();
    await notifier?.stop();
    await sql?.close();
    routeLogsTo(undefined);
    await receiver?.stop();
    process.umask(previousUmask);
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  });

  it('stores, signs with and logs no secret in plaintext, and keeps the folder owner-only', async () => {
    sql = await openSqlClient({ poolSize: 1, dataDir });
    await runMigrations(sql);
    const { box, generated } = loadSecretBox({ dataDir, sharedDatabase: false, production: false });
    expect(generated).toBe(false);
    const providers = new WebhookProviderService(sql, {
      policy: { allowPrivate: true, allowlist: [] },
      secrets: box,
    });
    const enroll = (path: string) =>
      providers.enroll({ name: `Receiver ${path}`, kind: 'custom', url: receiver.url(path) });
    const steady = await enroll('/steady');
    const rotating = await enroll('/rotating');
    const rotated = await providers.rotateSecret(rotating.provider.id);
    const secrets = [steady.secret, rotating.secret, rotated.secret];

    await commands.send(
      commandOf(aWebhookDecision({ providerIds: [steady.provider.id, rotating.provider.id] })),
    );
    const [toSteady] = await eventually(async () => {
      const got = receiver.at('/steady');
      return got.length > 0 ? got : undefined;
    });
    const [toRotating] = await eventually(async () => {
      const got = receiver.at('/rotating');
      return got.length > 0 ? got : undefined;
    });
    expect(verifies(steady.secret, toSteady)).toBe(true);
    // During the overlap both the new and the replaced secret verify.
    expect(verifies(rotated.secret, toRotating)).toBe(true);
    expect(verifies(rotating.secret, toRotating)).toBe(true);

    const { rows } = await sql.query<{ secret: string; previous_secret: string | null }>(
      'SELECT secret, previous_secret FROM webhook_providers',
    );
    for (const row of rows) {
      expect(row.secret).toMatch(/^v1:/);
      if (row.previous_secret !== null) expect(row.previous_secret).toMatch(/^v1:/);
    }

    await notifier!.stop();
    notifier = undefined;
    // The database writes its WAL and heap out as it closes.
    await sql.exec('CHECKPOINT');
    await sql.close();
    sql = undefined;

    const files = walk(dataDir);
    expect(files.filter((f) => f.path.includes('pg_wal')).length).toBeGreaterThan(0);
    // The search does see what the database holds: a provider's name is there in plaintext.
    expect(filesContaining(dataDir, 'Receiver /steady').length).toBeGreaterThan(0);
    for (const needle of [...secrets, ...secrets.map((s) => s.slice('whsec_'.length)), 'whsec_']) {
      expect(filesContaining(dataDir, needle)).toEqual([]);
      expect(lines.filter((line) => line.includes(needle))).toEqual([]);
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(files.filter((f) => f.directory && f.mode !== 0o700)).toEqual([]);
    expect(files.filter((f) => !f.directory && f.mode !== 0o600)).toEqual([]);
  });
});
