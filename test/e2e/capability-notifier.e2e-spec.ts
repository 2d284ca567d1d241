import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { RunningApp } from '@vigil/config';
import {
  DeliveryService,
  SqlNotificationSettingsStore,
  WebhookProviderService,
  createApiTokenService,
  type ApiTokenService,
  type SqlClient,
} from '@vigil/control-plane';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { startStreamProcessor } from '../../apps/stream-processor/src/start-stream-processor';
import { capabilityEnvironments, openEnvironmentSql } from '../support/capability-environments';
import { anEventInput } from '../support/factories';
import { eventually, request } from '../support/http-client';
import { SmtpSink } from '../support/smtp-sink';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';

jest.setTimeout(120_000);

const APP_URL = 'https://vigil.example.com';

describe.each(capabilityEnvironments())('notifier on %s', (_name, env) => {
  const run = randomUUID().slice(0, 8);
  const SIGNED = `det-signed-${run}`;
  const EMAILED = `det-emailed-${run}`;
  const FLAKY = `det-flaky-${run}`;
  const RECIPIENT = `soc-${run}@example.com`;
  const apps: RunningApp[] = [];
  let receiver: WebhookReceiver;
  let smtp: SmtpSink;
  let sql: SqlClient;
  let tokens: ApiTokenService;
  let deliveries: DeliveryService;
  let signingSecret: string;
  let ingestUrl: string;
  let writer: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    smtp = await SmtpSink.start();
    sql = await openEnvironmentSql(env);
    tokens = createApiTokenService(sql);
    deliveries = new DeliveryService(sql);
    const providers = new WebhookProviderService(sql, {
      policy: { allowPrivate: true, allowlist: [] },
    });
    const signed = await providers.enroll({
      name: 'Tines',
      kind: 'custom',
      url: receiver.url(`/signed/${run}`),
    });
    signingSecret = signed.secret;
    const flaky = await providers.enroll({
      name: 'Flaky',
      kind: 'custom',
      url: receiver.url(`/flaky/${run}`),
    });
    const store = new SqlNotificationSettingsStore(sql);
    const global = await store.saveGlobal({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      frequency: 'immediate',
      webhookEnabled: true,
      webhookProviderIds: [signed.provider.id],
    });
    await store.saveDetectionConfig(EMAILED, {
      useCustom: true,
      custom: { ...global, webhookEnabled: false, emailEnabled: true, recipients: [RECIPIENT] },
    });
    await store.saveDetectionConfig(FLAKY, {
      useCustom: true,
      custom: { ...global, webhookProviderIds: [flaky.provider.id] },
    });
    writer = (await tokens.createToken({ name: 'connector', permissions: { detection: 'write' } }))
      .value;

    const appEnv = {
      ...env,
      INGEST_PORT: '0',
      APP_URL,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      SMTP_FROM: 'Vigil <alerts@vigil.example.com>',
      NOTIFIER_RETRY_SCHEDULE: '200ms,400ms',
      NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
      PROCESSOR_TIMER_INTERVAL_MS: '100',
    };
    apps.push(await startStreamProcessor(appEnv));
    apps.push(await startNotifier(appEnv));
    const ingest = await startIngest(appEnv);
    apps.push(ingest);
    ingestUrl = ingest.url!;
  });

  afterAll(async () => {
    for (const app of apps.reverse()) await app.stop();
    await receiver?.stop();
    await smtp?.stop();
    await tokens?.drain();
    await sql?.close();
  });

  async function ingest(detectionId: string, count: number): Promise<Record<string, any>[]> {
    const events = Array.from({ length: count }, (_, i) =>
      anEventInput({
        detection_id: detectionId,
        happened: new Date(Date.now() - 60_000 + i).toISOString(),
        description: `Sign-in ${i}`,
      }),
    );
    const response = await request('POST', `${ingestUrl}/ingest/v1/detection-events`, {
      token: writer,
      json: events,
    });
    expect(response.status).toBe(202);
    return events;
  }

  const receivedAt = (path: string, count = 1) =>
    eventually(async () => {
      const got = receiver.at(path);
      return got.length >= count ? got : undefined;
    });

  const signatureHeaders = (received: ReceivedWebhook) => ({
    'webhook-id': String(received.headers['webhook-id']),
    'webhook-timestamp': String(received.headers['webhook-timestamp']),
    'webhook-signature': String(received.headers['webhook-signature']),
  });

  it('signs each webhook per Standard Webhooks with its provider’s secret', async () => {
    const events = await ingest(SIGNED, 2);
    const [received] = await receivedAt(`/signed/${run}`);

    const payload = new Webhook(signingSecret).verify(
      received.body,
      signatureHeaders(received),
    ) as Record<string, any>;
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['user-agent']).toBe('Vigil-Webhooks/1');
    expect(Number(received.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    expect(payload.delivery).toEqual({
      id: received.headers['webhook-id'],
      recipient_name: 'Tines',
      channel: 'webhook',
    });
    expect(payload.metadata).toMatchObject({
      detection_id: SIGNED,
      previous_count: 0,
      current_count: 2,
      event_count: 2,
    });
    expect(payload.notification.action_url).toBe(`${APP_URL}/u/detections/${SIGNED}`);
    // A body changed in transit no longer verifies.
    expect(() =>
      new Webhook(signingSecret).verify(
        received.body.replace(String(events.length), '9'),
        signatureHeaders(received),
      ),
    ).toThrow();
  });

  it('emails the detection’s recipients through SMTP', async () => {
    await ingest(EMAILED, 3);
    const [mail] = await eventually(async () =>
      smtp.to(RECIPIENT).length > 0 ? smtp.to(RECIPIENT) : undefined,
    );
    expect(mail.from).toBe('alerts@vigil.example.com');
    expect(mail.subject).toBe('Impossible travel: 3 new events');
    expect(mail.text).toContain('New events since last notification: 3');
    expect(mail.text).toContain(`${APP_URL}/u/detections/${EMAILED}`);
    expect(receiver.received.filter((r) => r.body.includes(EMAILED))).toEqual([]);
  });

  it('retries a failing receiver on the schedule, then delivers the same webhook once', async () => {
    receiver.on(`/flaky/${run}`, (_request, response, nth) => {
      response.writeHead(nth === 1 ? 500 : 204).end();
    });
    await ingest(FLAKY, 1);

    const [first, second] = await receivedAt(`/flaky/${run}`, 2);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    const id = String(first.headers['webhook-id']);
    const delivery = await eventually(async () => {
      const found = await deliveries.find(id);
      return found?.status === 'delivered' ? found : undefined;
    });
    expect(delivery.id).toBe(id);
    const attempts = await deliveries.attempts(id);
    expect(attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 204],
    ]);
    expect(receiver.at(`/flaky/${run}`)).toHaveLength(2);
  });
});
