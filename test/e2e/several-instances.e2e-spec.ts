import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import {
  SqlNotificationSettingsStore,
  WebhookProviderService,
  createApiTokenService,
  createPgSqlClient,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import { TopicCatalog } from '@vigil/kafka';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import { AppProcess } from '../chaos/support/app-process';
import { compileApps, repositoryRoot } from '../chaos/support/compiled-apps';
import { consumerLag } from '../chaos/support/consumer-lag';
import { seededRandom } from '../chaos/support/seeded-random';
import { anEventInput } from '../support/factories';
import { freePort } from '../support/free-port';
import { request } from '../support/http-client';
import { SmtpSink } from '../support/smtp-sink';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';

/**
 * Several instances of every app (DESIGN.md §9), on the real servers: two of each on the same
 * topics and database. A steady stream of events goes through both ingest instances; one
 * instance of every app is killed with SIGKILL mid-stream and started again. Once everything
 * has caught up:
 *
 * - webhooks are delivered at least once, every copy of a delivery (same webhook-id) with the
 *   same body, and one notification never with two contents; per detection, the webhooks chain
 *   from 0 to the detection's final count without gap or overlap;
 * - every event is found through both API instances;
 * - each recipient gets one digest per batch window, the same as the other recipient (a
 *   follow-up for entries that arrive after the window closed is allowed by design, and
 *   counted).
 *
 * Timed to the one-minute batch windows: the kills come 15 s into a window, after the previous
 * window's digest went out, so a digest is never cut mid-send.
 */
const APPS = ['stream-processor', 'indexer', 'notifier', 'ingest', 'api', 'web'] as const;
const DETECTIONS = 30;
const EVENTS_PER_REQUEST = 10;
const REQUEST_EVERY_MS = 250;
const RESEND_SHARE = 0.02;
const WINDOW_MS = 60_000;
const KILL_INTO_WINDOW_MS = 15_000;
const STREAM_AFTER_KILL_MS = 30_000;
const QUIESCE_MS = 150_000;
const RECIPIENTS = ['soc@example.com', 'oncall@example.com'];
const PARTITIONS = Number(process.env.VIGIL_TOPIC_PARTITIONS);
const PREFIX = process.env.VIGIL_TOPIC_PREFIX!;

jest.setTimeout(420_000);

interface Webhook {
  webhookId: string;
  body: string;
  payload: {
    notification: { id: string };
    metadata: {
      detection_id: string;
      previous_count: number;
      current_count: number;
      event_count: number;
    };
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

describe('several instances of every app, one of each killed mid-stream', () => {
  const random = seededRandom(20_251_125);
  const buildDir = join(repositoryRoot, '.vigil', 'e2e', `${PREFIX}build`);
  const kafka = new Kafka({
    brokers: process.env.KAFKA_BROKERS!.split(','),
    logLevel: logLevel.NOTHING,
  });
  const topics = new TopicCatalog(PREFIX, PARTITIONS);
  /** Two instances of each app, the first of each pair the one killed. */
  const instances = new Map<string, [AppProcess, AppProcess]>();
  const urls = new Map<string, [string, string]>();
  let receiver: WebhookReceiver;
  let smtp: SmtpSink;
  let sql: SqlClient;
  let admin: Admin;
  let token: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    smtp = await SmtpSink.start();
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    await runMigrations(sql);
    const providers = new WebhookProviderService(sql, {
      policy: { allowPrivate: true, allowlist: [] },
    });
    const { provider } = await providers.enroll({
      name: 'SOAR',
      kind: 'custom',
      url: receiver.url('/hooks'),
    });
    // Batch: webhooks at once, emails in one digest per recipient and one-minute window.
    await new SqlNotificationSettingsStore(sql).saveGlobal({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      frequency: 'batch',
      batchWindowMinutes: 1,
      webhookEnabled: true,
      webhookProviderIds: [provider.id],
      emailEnabled: true,
      recipients: RECIPIENTS,
    });
    const tokens = createApiTokenService(sql);
    token = (await tokens.createToken({ name: 'connector', permissions: { detection: 'write' } }))
      .value;
    await tokens.drain();

    await compileApps(buildDir);
    const env = {
      ...process.env,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
      NOTIFIER_RETRY_SCHEDULE: '200ms,500ms,1s,2s,5s',
      NOTIFIER_WEBHOOK_TIMEOUT_MS: '2000',
      NOTIFIER_DIGEST_GRACE_MS: '5000',
      PROCESSOR_TIMER_INTERVAL_MS: '200',
    };
    const portVariable = { api: 'API_PORT', ingest: 'INGEST_PORT', web: 'WEB_PORT' } as const;
    for (const app of APPS) {
      const pair: AppProcess[] = [];
      const addresses: string[] = [];
      for (let n = 0; n < 2; n++) {
        const variable = portVariable[app as keyof typeof portVariable];
        const port = variable ? await freePort() : 0;
        pair.push(
          new AppProcess(app, buildDir, variable ? { ...env, [variable]: String(port) } : env),
        );
        addresses.push(`http://127.0.0.1:${port}`);
      }
      instances.set(app, pair as [AppProcess, AppProcess]);
      urls.set(app, addresses as [string, string]);
    }
    // All at once, in no order: each creates the topics and registers the schemas it needs.
    await Promise.all([...instances.values()].flat().map((process) => process.start()));
    admin = kafka.admin();
    await admin.connect();
  });

  afterAll(async () => {
    await Promise.all([...instances.values()].flat().map((process) => process.stop()));
    await admin?.disconnect();
    await receiver?.stop();
    await smtp?.stop();
    await sql?.close();
    rmSync(buildDir, { recursive: true, force: true });
  });

  it('delivers every notification once in content, finds every event and sends each digest once', async () => {
    const started = Date.now();
    const firstWindow = Math.ceil((started + 5_000) / WINDOW_MS) * WINDOW_MS;
    const killAt = firstWindow + KILL_INTO_WINDOW_MS;
    const streamUntil = killAt + STREAM_AFTER_KILL_MS;

    const accepted = new Map<string, Set<string>>();
    let requests = 0;
    const streaming = stream(accepted, streamUntil, () => (requests += 1));
    await sleep(killAt - Date.now());
    const killedAt = Date.now();
    await Promise.all(
      [...instances.values()].map(async ([victim]) => {
        await victim.kill9();
        await sleep(1_000);
        await victim.start();
      }),
    );
    const restartedAt = Date.now();
    const sent = await streaming;
    const streamedAt = Date.now();

    const unmet = await eventuallyQuiet(accepted);
    const quietAt = Date.now();

    const webhooks = receiver.at('/hooks').map(toWebhook);
    const byWebhookId = groupBy(webhooks, (w) => w.webhookId);
    const differing = [...byWebhookId.values()].filter(
      (copies) => new Set(copies.map((c) => c.body)).size > 1,
    );
    const notificationsDiffering = [
      ...groupBy(webhooks, (w) => w.payload.notification.id).values(),
    ].filter(
      (copies) =>
        new Set(copies.map((c) => JSON.stringify([c.payload.notification, c.payload.metadata])))
          .size > 1,
    );
    const resends = webhooks.length - byWebhookId.size;

    const eventIds = [...accepted.values()].flatMap((ids) => [...ids]);
    const missingByApi = await Promise.all(
      urls.get('api')!.map((api) => missingFromApi(api, eventIds)),
    );
    const webAnswers = await Promise.all(
      urls.get('web')!.map(async (web) => (await fetch(`${web}/sign-in`)).status),
    );
    const digests = await digestReport();

    console.log(
      [
        `several instances: ${sent} events in ${requests} requests over ${DETECTIONS} detections, ${eventIds.length} distinct`,
        `kill -9 of one instance of each app at ${Math.round((killedAt - started) / 1000)} s, all running again ${Math.round((restartedAt - killedAt) / 1000)} s later`,
        `webhooks: ${new Set(webhooks.map((w) => w.payload.notification.id)).size} notifications, ${byWebhookId.size} deliveries, ${webhooks.length} requests (${resends} same-id resends, ${differing.length} with another body)`,
        `digests: ${digests.windows} windows, ${digests.emails} emails, ${digests.followUps} follow-ups, ${digests.resends} same-id resends`,
        `stream ${Math.round((streamedAt - started) / 1000)} s, quiescence ${Math.round((quietAt - streamedAt) / 1000)} s`,
      ].join('\n'),
    );

    expect(unmet).toEqual([]);
    expect(differing.map((copies) => copies.map((c) => c.body))).toEqual([]);
    expect(notificationsDiffering.map((copies) => copies.map((c) => c.body))).toEqual([]);
    expect(missingByApi.map((missing) => missing.slice(0, 10))).toEqual([[], []]);
    expect(webAnswers).toEqual([200, 200]);
    expect(digests.problems).toEqual([]);
    expect(digests.windows).toBeGreaterThanOrEqual(1);
  });

  /**
   * Requests of EVENTS_PER_REQUEST events every REQUEST_EVERY_MS until `until`, alternating the
   * two ingest instances; a request that fails (its instance was killed) is sent again to the
   * other one, as a connector would. A share of events are resends of earlier ones.
   */
  async function stream(
    accepted: Map<string, Set<string>>,
    until: number,
    counted: () => void,
  ): Promise<number> {
    const ingests = urls.get('ingest')!;
    const earlier: Record<string, any>[] = [];
    let sent = 0;
    for (let tick = 0, next = Date.now(); Date.now() < until; tick++) {
      const events = Array.from({ length: EVENTS_PER_REQUEST }, (_, i) =>
        earlier.length > 0 && random() < RESEND_SHARE
          ? earlier[Math.floor(random() * earlier.length)]
          : anEventInput({
              id: `evt-${tick}-${i}`,
              detection_id: `det-${Math.floor(random() * DETECTIONS)}`,
              employee_email: `user${Math.floor(random() * 7)}@example.com`,
              happened: new Date().toISOString(),
            }),
      );
      for (let attempt = 0; ; attempt++) {
        const ingest = ingests[(tick + attempt) % 2];
        counted();
        const response = await request('POST', `${ingest}/ingest/v1/detection-events`, {
          token,
          json: events,
        }).catch(() => null);
        if (response?.status === 202) break;
        if (attempt > 50) throw new Error(`ingest refused: ${response?.status ?? 'no answer'}`);
        await sleep(200);
      }
      for (const event of events) {
        const ids = accepted.get(event.detection_id) ?? new Set<string>();
        ids.add(event.id);
        accepted.set(event.detection_id, ids);
        earlier.push(event);
      }
      sent += events.length;
      next += REQUEST_EVERY_MS;
      await sleep(next - Date.now());
    }
    return sent;
  }

  /** Until the consumers caught up, every webhook chain is complete and every digest sent. */
  async function eventuallyQuiet(accepted: Map<string, Set<string>>): Promise<string[]> {
    const deadline = Date.now() + QUIESCE_MS;
    for (;;) {
      const lags = await Promise.all([
        consumerLag(admin, {
          groupId: `${PREFIX}vigil-stream-processor`,
          topic: topics.detectionEvents,
        }),
        consumerLag(admin, { groupId: `${PREFIX}vigil-indexer`, topic: topics.detectionEvents }),
        consumerLag(admin, {
          groupId: `${PREFIX}vigil-notifier`,
          topic: topics.notificationCommands,
        }),
      ]);
      const { rows } = await sql.query<{ open: number; unsent: number }>(
        `SELECT (SELECT count(*)::int FROM digest_entries WHERE digest_sequence IS NULL) AS open,
                (SELECT count(*)::int FROM deliveries WHERE status <> 'delivered') AS unsent`,
      );
      const unmet = [
        ...unmetChains(accepted),
        ...(lags.every((lag) => lag <= PARTITIONS) ? [] : [`consumer lags ${lags.join(', ')}`]),
        ...(rows[0].open > 0 ? [`${rows[0].open} digest entries in open windows`] : []),
        ...(rows[0].unsent > 0 ? [`${rows[0].unsent} deliveries not delivered`] : []),
      ];
      if (unmet.length === 0 || Date.now() > deadline) return unmet.slice(0, 20);
      await sleep(2_000);
    }
  }

  /**
   * Per detection: the distinct webhook deliveries, in order of count, chain from 0 to the
   * number of distinct events accepted for it, without gap or overlap.
   */
  function unmetChains(accepted: Map<string, Set<string>>): string[] {
    const deliveries = new Map(receiver.at('/hooks').map((r) => [r.headers['webhook-id'], r]));
    const byDetection = groupBy([...deliveries.values()].map(toWebhook), (w) =>
      String(w.payload.metadata.detection_id),
    );
    const unmet: string[] = [];
    for (const [detection, ids] of accepted) {
      const got = (byDetection.get(detection) ?? [])
        .map((w) => w.payload.metadata)
        .sort((x, y) => x.current_count - y.current_count);
      const contiguous = got.every(
        (m, i) =>
          m.previous_count === (i === 0 ? 0 : got[i - 1].current_count) &&
          m.current_count - m.previous_count === m.event_count,
      );
      const reached = got.at(-1)?.current_count ?? 0;
      if (!contiguous || reached !== ids.size) {
        const chain = got.map((m) => `${m.previous_count}+${m.event_count}=${m.current_count}`);
        unmet.push(`${detection}: ${ids.size} events, webhooks ${chain.join(' ') || 'none'}`);
      }
    }
    return unmet;
  }

  /** The ids the API instance does not return, looked up a hundred at a time. */
  async function missingFromApi(api: string, ids: string[]): Promise<string[]> {
    const missing: string[] = [];
    for (let i = 0; i < ids.length; i += 100) {
      const chunk = ids.slice(i, i + 100);
      const response = await request('POST', `${api}/api-key/v1/events`, {
        token,
        json: { query: `id IN (${chunk.map((id) => `'${id}'`).join(', ')})`, limit: 1000 },
      });
      if (response.status !== 200) return [`${api} answered ${response.status}`];
      const found = new Set((response.body.items as { id: string }[]).map((item) => item.id));
      missing.push(...chunk.filter((id) => !found.has(id)));
    }
    return missing;
  }

  /**
   * The digests as sent (the notifier's `digests` table: one row per recipient, window and
   * sequence) against the emails received: each row's email arrived, every copy the same, and
   * no other digest email; in each window, every recipient's digest reads the same.
   */
  async function digestReport() {
    const { rows } = await sql.query<{
      recipient: string;
      window_start: string;
      sequence: number;
      delivery_id: string;
    }>('SELECT recipient, window_start, sequence, delivery_id FROM digests');
    const emails = smtp.received.filter((email) => email.subject?.startsWith('Vigil digest'));
    const byMessageId = groupBy(emails, (email) => String(email.messageId));
    const problems: string[] = [];
    for (const row of rows) {
      const copies = byMessageId.get(`<${row.delivery_id}@vigil>`) ?? [];
      const where = `${row.recipient} window ${row.window_start} #${row.sequence}`;
      if (copies.length === 0) problems.push(`${where}: not received`);
      if (new Set(copies.map((c) => c.text)).size > 1) problems.push(`${where}: copies differ`);
      if (copies.some((c) => !c.envelopeTo.includes(row.recipient))) {
        problems.push(`${where}: sent to someone else`);
      }
    }
    const known = new Set(rows.map((row) => `<${row.delivery_id}@vigil>`));
    for (const messageId of byMessageId.keys()) {
      if (!known.has(messageId)) problems.push(`unexpected digest ${messageId}`);
    }
    for (const [window, digests] of groupBy(rows, (row) => `${row.window_start}#${row.sequence}`)) {
      const texts = digests.map((row) =>
        linesOf(byMessageId.get(`<${row.delivery_id}@vigil>`)?.[0]?.text),
      );
      if (new Set(texts).size > 1)
        problems.push(`window ${window}: recipients got different digests`);
    }
    for (const [window, digests] of groupBy(rows, (row) => row.window_start)) {
      for (const recipient of RECIPIENTS) {
        const first = digests.filter((row) => row.recipient === recipient && row.sequence === 0);
        if (first.length !== 1)
          problems.push(`window ${window}: ${first.length} digests to ${recipient}`);
      }
    }
    return {
      problems,
      windows: new Set(rows.map((row) => row.window_start)).size,
      emails: emails.length,
      followUps: rows.filter((row) => row.sequence > 0).length,
      resends: emails.length - byMessageId.size,
    };
  }
});

/** A digest's detections, in a fixed order: detections of the same name may come in any. */
function linesOf(text: string | undefined): string {
  return (text ?? '').split('\n\n').sort().join('\n\n');
}

function toWebhook(request: ReceivedWebhook): Webhook {
  return {
    webhookId: String(request.headers['webhook-id']),
    body: request.body,
    payload: JSON.parse(request.body) as Webhook['payload'],
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
