import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { RunningApp } from '@vigil/config';
import {
  DeliveryService,
  SqlNotificationSettingsStore,
  WebhookProviderService,
  createApiTokenService,
  createPgSqlClient,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import { startApi } from '../../apps/api/src/start-api';
import { startIndexer } from '../../apps/indexer/src/start-indexer';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { startStreamProcessor } from '../../apps/stream-processor/src/start-stream-processor';
import { anEventInput } from '../support/factories';
import { eventually, request, type JsonResponse } from '../support/http-client';
import { WebhookReceiver } from '../support/webhook-receiver';
import { chaosScale } from './support/chaos-scale';
import { PrivateServers } from './support/private-servers';

/**
 * The whole pipeline (ingest → processor → notifier → webhook, and indexer → Elasticsearch →
 * query API) on servers of the test's own, while Kafka restarts, Elasticsearch is down and
 * PostgreSQL is down. Nothing accepted is lost: every event is queryable afterwards and every
 * detection's last webhook counts all its events.
 */
const ES_DOWN_MS = chaosScale(15_000, 60_000);
const PG_DOWN_MS = chaosScale(6_000, 20_000);
const KAFKA_DOWN_MS = chaosScale(3_000, 15_000);
const DETECTIONS = chaosScale(6, 20);
const FEED_INTERVAL_MS = chaosScale(300, 200);
const EVENTS_PER_BATCH = 4;

jest.setTimeout(chaosScale(600_000, 1_800_000));

const servers = new PrivateServers();
const run = randomUUID().slice(0, 8);
const detectionIds = Array.from({ length: DETECTIONS }, (_, i) => `det-fault-${i}-${run}`);
const apps: RunningApp[] = [];
let receiver: WebhookReceiver;
let sql: SqlClient;
let ingestUrl: string;
let apiUrl: string;
let writeToken: string;
let unusedReadToken: string;

/** Events ingest accepted (202), per detection. */
const accepted = new Map<string, Set<string>>(detectionIds.map((id) => [id, new Set()]));
/** Ingest answers other than 202, by phase and status. */
const refusals: Record<string, Record<number, number>> = {};
/** Refusals other than 503 (a 500 is a bug, a 401 a token check that failed open or wrong). */
const unexpected: { phase: string; status: number; body: unknown }[] = [];
let phase = 'steady';
const figures: Record<string, string> = {};

/** Sends batches of new events until stopped; a refused batch is sent again, same ids. */
class Feeder {
  private stopped = false;
  private loop: Promise<void> | null = null;
  private sequence = 0;

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  private async run(): Promise<void> {
    let batch: Record<string, any>[] | null = null;
    while (!this.stopped) {
      batch ??= Array.from({ length: EVENTS_PER_BATCH }, () => {
        this.sequence += 1;
        return anEventInput({
          detection_id: detectionIds[this.sequence % DETECTIONS],
          happened: new Date(Date.UTC(2025, 4, 1) + this.sequence * 1000).toISOString(),
        });
      });
      const response = await request('POST', `${ingestUrl}/ingest/v1/detection-events`, {
        token: writeToken,
        json: batch,
      }).catch(() => null);
      if (response?.status === 202) {
        for (const event of batch) accepted.get(event.detection_id)!.add(event.id);
        batch = null;
      } else {
        const byStatus = (refusals[phase] ??= {});
        const status = response?.status ?? 0;
        byStatus[status] = (byStatus[status] ?? 0) + 1;
        if (response && response.status !== 503)
          unexpected.push({ phase, status, body: response.body });
      }
      await new Promise((resolve) => setTimeout(resolve, FEED_INTERVAL_MS));
    }
  }
}

const feeder = new Feeder();
const totalAccepted = () => [...accepted.values()].reduce((n, ids) => n + ids.size, 0);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The highest current_count each detection's webhooks reported. */
function notifiedCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const hook of receiver.at('/hooks')) {
    const payload = JSON.parse(hook.body) as {
      metadata?: { detection_id: string; current_count: number };
    };
    if (!payload.metadata) continue;
    const { detection_id, current_count } = payload.metadata;
    counts.set(detection_id, Math.max(counts.get(detection_id) ?? 0, current_count));
  }
  return counts;
}

async function queryEvents(token: string): Promise<JsonResponse> {
  return request('POST', `${apiUrl}/api-key/v1/detections/${detectionIds[0]}/events`, {
    token,
    json: { limit: 1 },
  });
}

/** Every event id of a detection the query API returns, paging to the end. */
async function queryableIds(detectionId: string, token: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  do {
    const page: JsonResponse = await request(
      'POST',
      `${apiUrl}/api-key/v1/detections/${detectionId}/events`,
      { token, json: { limit: 1000, cursor: cursor ?? undefined } },
    );
    if (page.status !== 200) throw new Error(`query answered ${page.status}`);
    for (const item of page.body.items as { id: string }[]) ids.add(item.id);
    cursor = page.body.pagination.next_cursor as string | null;
  } while (cursor);
  return ids;
}

beforeAll(async () => {
  const t0 = Date.now();
  await servers.start('kafka', 'elasticsearch', 'postgres');
  figures['private servers ready in'] = `${Date.now() - t0} ms`;
  const database = `vigil_chaos_faults_${run}`;
  const admin = new Client({ connectionString: servers.postgresAdminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  await admin.end();
  const databaseUrl = servers.databaseUrl(database);

  receiver = await WebhookReceiver.start();
  sql = createPgSqlClient(databaseUrl, 2);
  await runMigrations(sql);
  const { provider } = await new WebhookProviderService(sql, {
    policy: { allowPrivate: true, allowlist: [] },
  }).enroll({ name: 'SOAR', kind: 'custom', url: receiver.url('/hooks') });
  await new SqlNotificationSettingsStore(sql).saveGlobal({
    ...DEFAULT_NOTIFICATION_SETTINGS,
    frequency: 'immediate',
    webhookEnabled: true,
    webhookProviderIds: [provider.id],
  });
  const tokens = createApiTokenService(sql);
  writeToken = (await tokens.createToken({ name: 'writer', permissions: { detection: 'write' } }))
    .value;
  unusedReadToken = (
    await tokens.createToken({ name: 'reader', permissions: { detection: 'read' } })
  ).value;

  const env = {
    ...process.env,
    KAFKA_BROKERS: servers.kafkaBrokers,
    ELASTICSEARCH_URL: servers.elasticsearchUrl,
    DATABASE_URL: databaseUrl,
    API_PORT: '0',
    INGEST_PORT: '0',
    API_RATE_LIMIT_PER_MINUTE: '100000',
    NOTIFIER_RETRY_SCHEDULE: '1s,2s,4s,8s,15s,30s,30s,60s',
    NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
    PROCESSOR_TIMER_INTERVAL_MS: '200',
  };
  apps.push(await startIndexer(env));
  apps.push(await startStreamProcessor(env));
  apps.push(await startNotifier(env));
  const ingest = await startIngest(env);
  apps.push(ingest);
  const api = await startApi(env);
  apps.push(api);
  ingestUrl = ingest.url!;
  apiUrl = api.url!;
}, 600_000);

afterAll(async () => {
  await feeder.stop();
  console.log('server faults:', { ...figures, refusals });
  for (const app of apps.reverse()) await app.stop().catch(() => undefined);
  await receiver?.stop();
  await sql?.close();
  // Whatever happened, the private servers are left running (or stopped if this run started them).
  await servers.restart('kafka', 'elasticsearch', 'postgres').catch(() => undefined);
  await servers.release();
});

describe('the pipeline through broker and database faults', () => {
  it('loses nothing while Kafka restarts, Elasticsearch is down and PostgreSQL is down', async () => {
    feeder.start();
    await eventually(async () => (notifiedCounts().size > 0 ? true : undefined), {
      timeoutMs: 60_000,
    });

    // Kafka restarts mid-run.
    phase = 'kafka restart';
    let t = Date.now();
    await servers.stop('kafka');
    await pause(KAFKA_DOWN_MS);
    await servers.restart('kafka');
    figures['kafka down for'] = `${Date.now() - t} ms`;
    phase = 'after kafka';
    const beforeEs = totalAccepted();
    await eventually(
      async () => (totalAccepted() > beforeEs + EVENTS_PER_BATCH ? true : undefined),
      {
        timeoutMs: 120_000,
      },
    );

    // Elasticsearch down: the query API answers 503 backend_unavailable with Retry-After.
    phase = 'elasticsearch down';
    t = Date.now();
    await servers.stop('elasticsearch');
    const answers: string[] = [];
    const during = await eventually(
      async () => {
        const asked = Date.now();
        const response = await queryEvents(unusedReadToken);
        answers.push(`${response.status} in ${Date.now() - asked} ms`);
        figures['query API answers while elasticsearch is down'] = answers.join(', ');
        expect(response.status).not.toBe(500);
        return response.status === 503 ? response : undefined;
      },
      { timeoutMs: 90_000 },
    );
    expect(during.body.error.code).toBe('backend_unavailable');
    expect(Number(during.headers.get('retry-after'))).toBeGreaterThan(0);
    await pause(Math.max(0, ES_DOWN_MS - (Date.now() - t)));
    expect((await queryEvents(unusedReadToken)).status).toBe(503);
    await servers.restart('elasticsearch');
    figures['elasticsearch down for'] = `${Date.now() - t} ms`;
    phase = 'after elasticsearch';
    await eventually(
      async () => ((await queryEvents(unusedReadToken)).status === 200 ? true : undefined),
      { timeoutMs: 60_000 },
    );

    // PostgreSQL down: token checks fail closed with 503, never 401 or 500.
    phase = 'postgres down';
    t = Date.now();
    const freshReadToken = (
      await createApiTokenService(sql).createToken({
        name: 'reader-2',
        permissions: { detection: 'read' },
      })
    ).value;
    await servers.stop('postgres');
    const refused = await queryEvents(freshReadToken);
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('backend_unavailable');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const known = await queryEvents(unusedReadToken);
    expect([200, 503]).toContain(known.status);
    await pause(Math.max(0, PG_DOWN_MS - (Date.now() - t)));
    expect((await queryEvents(freshReadToken)).status).toBe(503);
    await servers.restart('postgres');
    figures['postgres down for'] = `${Date.now() - t} ms`;
    phase = 'after postgres';
    await eventually(
      async () => ((await queryEvents(freshReadToken)).status === 200 ? true : undefined),
      { timeoutMs: 60_000 },
    );
    const beforeEnd = totalAccepted();
    await eventually(
      async () => (totalAccepted() > beforeEnd + EVENTS_PER_BATCH ? true : undefined),
      {
        timeoutMs: 60_000,
      },
    );
    await feeder.stop();

    // Nothing lost: every accepted event is queryable and counted in a delivered webhook.
    figures['events accepted'] = String(totalAccepted());
    const missing = await eventually(
      async () => {
        const lost: string[] = [];
        for (const [detectionId, ids] of accepted) {
          const found = await queryableIds(detectionId, freshReadToken);
          lost.push(...[...ids].filter((id) => !found.has(id)));
        }
        return lost.length === 0 ? lost : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 2_000 },
    ).catch(() => ['(some events never became queryable)']);
    figures['events lost (query API)'] = String(missing.length);
    expect(missing).toEqual([]);

    const expected = new Map([...accepted].map(([id, ids]) => [id, ids.size]));
    const notified = await eventually(
      async () => {
        const counts = notifiedCounts();
        return detectionIds.every((id) => counts.get(id) === expected.get(id)) ? counts : undefined;
      },
      { timeoutMs: 180_000, intervalMs: 1_000 },
    ).catch(() => notifiedCounts());
    const unnotified = detectionIds.filter((id) => notified.get(id) !== expected.get(id));
    figures['detections whose last webhook misses events'] = String(unnotified.length);
    expect(Object.fromEntries(unnotified.map((id) => [id, notified.get(id) ?? 0]))).toEqual(
      Object.fromEntries(unnotified.map((id) => [id, expected.get(id)])),
    );
    // Ingest refused only with 503 backend_unavailable while a server was down.
    expect(unexpected).toEqual([]);
    const dead = await new DeliveryService(sql).list({ status: 'dead' });
    expect(dead).toEqual([]);
    const pending = await new DeliveryService(sql).list({ status: 'pending' });
    figures['deliveries pending at the end'] = String(pending.length);
  });
});
