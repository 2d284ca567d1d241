import { randomUUID } from 'node:crypto';
import type { RunningApp } from '@vigil/config';
import {
  SqlNotificationSettingsStore,
  WebhookProviderService,
  createApiTokenService,
  type ApiTokenService,
  type SqlClient,
} from '@vigil/control-plane';
import {
  DEFAULT_DETECTION_NOTIFICATION_CONFIG,
  DEFAULT_NOTIFICATION_SETTINGS,
  snoozeDetection,
  unsilenceDetection,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { startStreamProcessor } from '../../apps/stream-processor/src/start-stream-processor';
import { capabilityEnvironments, openEnvironmentSql } from '../support/capability-environments';
import { anEventInput } from '../support/factories';
import { eventually, request } from '../support/http-client';
import { keyOnPartitionOf } from '../support/partition-of';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(120_000);

const PARTITIONS = Number(process.env.VIGIL_TOPIC_PARTITIONS);

interface DetectionWebhook {
  notificationId: string;
  detectionId: string;
  previousCount: number;
  currentCount: number;
  eventCount: number;
  eventIds: string[];
}

describe.each(capabilityEnvironments())('stream processor on %s', (_name, env) => {
  const run = randomUUID().slice(0, 8);
  const detection = (name: string) => `det-${name}-${run}`;
  const IMMEDIATE = detection('immediate');
  const THRESHOLD = detection('threshold');
  const BATCH = detection('batch');
  const SNOOZED = detection('snoozed');
  const RESTARTED = [1, 2, 3].map((n) => detection(`restart${n}`));

  const appEnv = {
    ...env,
    INGEST_PORT: '0',
    PROCESSOR_TIMER_INTERVAL_MS: '100',
    NOTIFIER_RETRY_SCHEDULE: '200ms,400ms',
    NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
    APP_URL: 'https://vigil.example.com',
  };
  const apps: RunningApp[] = [];
  let processor: RunningApp;
  let receiver: WebhookReceiver;
  let sql: SqlClient;
  let tokens: ApiTokenService;
  let store: SqlNotificationSettingsStore;
  let global: NotificationSettings;
  let ingestUrl: string;
  let writer: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    sql = await openEnvironmentSql(env);
    tokens = createApiTokenService(sql);
    const providers = new WebhookProviderService(sql, {
      policy: { allowPrivate: true, allowlist: [] },
    });
    const { provider } = await providers.enroll({
      name: 'SOAR',
      kind: 'custom',
      url: receiver.url(`/hooks/${run}`),
    });
    store = new SqlNotificationSettingsStore(sql);
    global = await store.saveGlobal({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      frequency: 'immediate',
      webhookEnabled: true,
      webhookProviderIds: [provider.id],
    });
    // Saved before the processor starts, so its first read of the settings has them.
    await store.saveDetectionConfig(THRESHOLD, {
      useCustom: true,
      custom: { ...global, frequency: 'threshold', threshold: 3 },
    });
    await store.saveDetectionConfig(BATCH, {
      useCustom: true,
      custom: { ...global, frequency: 'batch', batchWindowMinutes: 1 },
    });
    writer = (await tokens.createToken({ name: 'connector', permissions: { detection: 'write' } }))
      .value;

    processor = await startStreamProcessor(appEnv);
    apps.push(await startNotifier(appEnv));
    const ingest = await startIngest(appEnv);
    apps.push(ingest);
    ingestUrl = ingest.url!;
  });

  afterAll(async () => {
    await processor?.stop();
    for (const app of apps.reverse()) await app.stop();
    await receiver?.stop();
    await tokens?.drain();
    await sql?.close();
  });

  let sequence = 0;
  function eventsOf(detectionId: string, count: number): Record<string, any>[] {
    return Array.from({ length: count }, () => {
      sequence += 1;
      return anEventInput({
        detection_id: detectionId,
        employee_email: `user${sequence % 3}@example.com`,
        happened: new Date(Date.now() - 60_000 + sequence).toISOString(),
      });
    });
  }

  async function ingest(events: Record<string, any>[]): Promise<void> {
    const response = await request('POST', `${ingestUrl}/ingest/v1/detection-events`, {
      token: writer,
      json: events,
    });
    expect(response.status).toBe(202);
  }

  /** Every webhook of the detection as received: the receiver always answers 200, so a repeat would be a duplicate. */
  function webhooksOf(detectionId: string): DetectionWebhook[] {
    return receiver
      .at(`/hooks/${run}`)
      .map((received) => JSON.parse(received.body) as Record<string, any>)
      .filter((payload) => payload.metadata?.detection_id === detectionId)
      .map((payload) => ({
        notificationId: payload.notification.id as string,
        detectionId,
        previousCount: payload.metadata.previous_count as number,
        currentCount: payload.metadata.current_count as number,
        eventCount: payload.metadata.event_count as number,
        eventIds: (payload.metadata.events as { id: string }[]).map((e) => e.id),
      }));
  }

  const counts = (webhook: DetectionWebhook) => [
    webhook.previousCount,
    webhook.currentCount,
    webhook.eventCount,
  ];

  const untilWebhooks = (detectionId: string, count: number) =>
    eventually(async () => {
      const got = webhooksOf(detectionId);
      return got.length >= count ? got : undefined;
    });

  /** An event of another detection on the same partition, sent after `detectionId`'s: once its webhook is in, theirs were consumed. */
  async function ingestMarkerAfter(detectionId: string): Promise<void> {
    const marker = keyOnPartitionOf(detectionId, `det-marker-${run}`, PARTITIONS);
    const before = webhooksOf(marker).length;
    await ingest(eventsOf(marker, 1));
    await untilWebhooks(marker, before + 1);
  }

  it('Immediate: one webhook per new batch of events with exact counts; a resent event counts once', async () => {
    const first = eventsOf(IMMEDIATE, 3);
    await ingest(first);
    await untilWebhooks(IMMEDIATE, 1);

    // A connector retry of everything with one new event: only the new one is reported.
    const next = eventsOf(IMMEDIATE, 1);
    await ingest([...first, ...next]);
    await untilWebhooks(IMMEDIATE, 2);
    await ingest(first);
    await ingestMarkerAfter(IMMEDIATE);

    const webhooks = webhooksOf(IMMEDIATE);
    expect(webhooks.map(counts)).toEqual([
      [0, 3, 3],
      [3, 4, 1],
    ]);
    expect(webhooks[1].eventIds).toEqual([next[0].id]);
    expect(webhooks.reduce((sum, w) => sum + w.eventCount, 0)).toBe(4);
  });

  it('Threshold: nothing at or below the threshold, one webhook above it, then one per rise', async () => {
    await ingest(eventsOf(THRESHOLD, 2));
    await ingest(eventsOf(THRESHOLD, 1));
    await ingestMarkerAfter(THRESHOLD);
    expect(webhooksOf(THRESHOLD)).toEqual([]);

    await ingest(eventsOf(THRESHOLD, 1));
    await untilWebhooks(THRESHOLD, 1);
    await ingest(eventsOf(THRESHOLD, 2));
    const webhooks = await untilWebhooks(THRESHOLD, 2);
    await ingestMarkerAfter(THRESHOLD);
    expect(webhooksOf(THRESHOLD).map(counts)).toEqual([
      [0, 4, 4],
      [4, 6, 2],
    ]);
    expect(webhooks.reduce((sum, w) => sum + w.eventCount, 0)).toBe(6);
  });

  it('Batch: webhooks still fire as events arrive, each event counted once', async () => {
    await ingest(eventsOf(BATCH, 2));
    await untilWebhooks(BATCH, 1);
    await ingest(eventsOf(BATCH, 3));
    await untilWebhooks(BATCH, 2);
    await ingestMarkerAfter(BATCH);
    const webhooks = webhooksOf(BATCH);
    expect(webhooks.map(counts)).toEqual([
      [0, 2, 2],
      [2, 5, 3],
    ]);
  });

  it('a snoozed detection sends nothing; resuming it sends one webhook covering every event since', async () => {
    await store.saveDetectionConfig(
      SNOOZED,
      snoozeDetection(DEFAULT_DETECTION_NOTIFICATION_CONFIG, global, '1h', Date.now()),
    );
    // The processor reads the settings change before the events arrive.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const events = eventsOf(SNOOZED, 3);
    await ingest(events);
    await ingestMarkerAfter(SNOOZED);
    expect(webhooksOf(SNOOZED)).toEqual([]);

    await store.saveDetectionConfig(
      SNOOZED,
      unsilenceDetection(await store.getDetectionConfig(SNOOZED)),
    );
    const [webhook] = await untilWebhooks(SNOOZED, 1);
    expect(counts(webhook)).toEqual([0, 3, 3]);
    expect(webhook.eventIds).toEqual(events.map((e) => e.id as string));

    await ingest(eventsOf(SNOOZED, 1));
    await untilWebhooks(SNOOZED, 2);
    expect(webhooksOf(SNOOZED).map(counts)).toEqual([
      [0, 3, 3],
      [3, 4, 1],
    ]);
  });

  it('loses and repeats nothing when the processor restarts mid-stream', async () => {
    const rounds = 6;
    const perRound = 2;
    const reported = (id: string) =>
      webhooksOf(id).reduce((sum, webhook) => sum + webhook.eventCount, 0);
    const untilReported = (total: number) =>
      eventually(async () => (RESTARTED.every((id) => reported(id) >= total) ? true : undefined));
    for (let round = 0; round < rounds; round++) {
      await ingest(RESTARTED.flatMap((id) => eventsOf(id, perRound)));
      if (round === 1) await untilReported(2 * perRound);
      if (round === 2) await processor.stop();
      if (round === 3) processor = await startStreamProcessor(appEnv);
    }
    await untilReported(rounds * perRound);
    for (const id of RESTARTED) await ingestMarkerAfter(id);
    for (const id of RESTARTED) {
      const webhooks = webhooksOf(id);
      expect(reported(id)).toBe(rounds * perRound);
      // Each webhook starts where the previous one ended.
      webhooks.forEach((webhook, i) => {
        expect(webhook.previousCount).toBe(i === 0 ? 0 : webhooks[i - 1].currentCount);
        expect(webhook.currentCount - webhook.previousCount).toBe(webhook.eventCount);
      });
      expect(new Set(webhooks.flatMap((w) => w.eventIds)).size).toBe(rounds * perRound);
      expect(new Set(webhooks.map((w) => w.notificationId)).size).toBe(webhooks.length);
    }
  });
});
