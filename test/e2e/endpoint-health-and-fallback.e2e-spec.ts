import { randomUUID } from 'node:crypto';
import { type RunningApp } from '@vigil/config';
import {
  DeliveryService,
  FallbackDestinationService,
  WebhookProviderService,
  createPgSqlClient,
  createUserService,
  type AuditContext,
  type SqlClient,
} from '@vigil/control-plane';
import { createKafkaClient, TopicCatalog } from '@vigil/kafka';
import { createLogger } from '@vigil/config';
import type { Kafka } from 'kafkajs';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { eventually } from '../support/http-client';
import { CommandProducer, aWebhookDecision, commandOf } from '../support/notification-commands';
import { SmtpSink } from '../support/smtp-sink';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(90_000);

const APP_URL = 'https://vigil.example.com';
const OPERATOR: AuditContext = { actor: { type: 'operator', id: null, label: 'e2e' } };

let notifier: RunningApp;
let receiver: WebhookReceiver;
let smtp: SmtpSink;
let sql: SqlClient;
let providers: WebhookProviderService;
let deliveries: DeliveryService;
let fallbacks: FallbackDestinationService;
let kafka: Kafka;
let commands: CommandProducer;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  smtp = await SmtpSink.start();
  notifier = await startNotifier({
    ...process.env,
    APP_URL,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    NOTIFIER_RETRY_SCHEDULE: '100ms,200ms',
    NOTIFIER_WEBHOOK_TIMEOUT_MS: '1000',
    NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
    NOTIFIER_DISABLE_AFTER_DEAD_IN_A_ROW: '2',
  });
  sql = createPgSqlClient(process.env.DATABASE_URL!, 4);
  providers = new WebhookProviderService(sql, { policy: { allowPrivate: true, allowlist: [] } });
  deliveries = new DeliveryService(sql);
  fallbacks = new FallbackDestinationService(sql);
  kafka = createKafkaClient(
    { brokers: process.env.KAFKA_BROKERS!.split(','), clientId: 'endpoint-health-e2e' },
    createLogger('endpoint-health-e2e', 'warn'),
  );
  commands = new CommandProducer(
    kafka,
    new TopicCatalog(process.env.VIGIL_TOPIC_PREFIX!, 3).notificationCommands,
  );
  await commands.connect();
}, 60_000);

/** Deleted at the end: the database is shared with the specs that run after this one. */
const enrolled: string[] = [];

afterAll(async () => {
  for (const id of enrolled) await providers?.delete(id).catch(() => undefined);
  await commands?.disconnect();
  await notifier?.stop();
  await sql?.close();
  await receiver?.stop();
  await smtp?.stop();
});

async function enroll(path: string) {
  const { provider } = await providers.enroll(
    { name: `Provider ${path}`, kind: 'custom', url: receiver.url(path) },
    OPERATOR,
  );
  enrolled.push(provider.id);
  return provider;
}

async function deliveryOf(notificationId: string, status: string) {
  return eventually(async () => {
    const [found] = await deliveries.list({ notificationId });
    return found?.status === status ? found : undefined;
  });
}

describe('fallback destination', () => {
  it("tells a detection's fallback provider and recipients of a delivery that died, once", async () => {
    const path = `/dying-${randomUUID()}`;
    const fallbackPath = `/fallback-${randomUUID()}`;
    receiver.on(path, (_req, res) => void res.writeHead(503).end('down for maintenance'));
    const dying = await enroll(path);
    const fallbackHook = await enroll(fallbackPath);
    const decision = aWebhookDecision({ providerIds: [dying.id] });
    const oncall = `oncall-${randomUUID()}@example.com`;
    await fallbacks.setForDetection(
      decision.detectionId,
      { providerId: fallbackHook.id, recipients: `${oncall.toUpperCase()}, ` },
      OPERATOR,
    );
    await commands.send(commandOf(decision));

    const dead = await deliveryOf(decision.notificationId, 'dead');
    const [told] = await eventually(async () => {
      const got = receiver.at(fallbackPath);
      return got.length > 0 ? got : undefined;
    });
    const event = JSON.parse(told.body) as {
      type: string;
      data: Record<string, unknown> & { target: unknown; failure: Record<string, unknown> };
    };
    expect(event.type).toBe('delivery.failed');
    expect(event.data).toMatchObject({
      delivery_id: dead.id,
      notification_id: decision.notificationId,
      kind: 'detection',
      subject_id: decision.detectionId,
      target: { channel: 'webhook', id: dying.id, name: dying.name },
      failure: { attempts: 3, last_status_code: 503, last_error: 'HTTP 503: down for maintenance' },
    });
    // The body the dead delivery carried, as it was: the SPEC payload here.
    expect(event.data.payload).toMatchObject({ delivery: { id: dead.id } });
    // Signed like any webhook, under its own id.
    expect(told.headers['webhook-id']).not.toBe(dead.id);
    const [email] = await eventually(async () => {
      const got = smtp.to(oncall);
      return got.length > 0 ? got : undefined;
    });
    expect(email.subject).toBe(`[Vigil] Delivery to ${dying.name} failed`);
    expect(email.text).toContain('after 3 attempts');

    // Resent and dead again: the fallback was told once and is not told again.
    await deliveries.resend(dead.id);
    await eventually(async () =>
      receiver.at(path).length >= 6 && (await deliveries.find(dead.id))?.status === 'dead'
        ? true
        : undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.at(fallbackPath)).toHaveLength(1);
    expect(smtp.to(oncall)).toHaveLength(1);
    const fallbackDeliveries = await deliveries.list({ subjectId: decision.detectionId });
    expect(
      fallbackDeliveries
        .filter((d) => d.kind === 'fallback')
        .map((d) => d.channel)
        .sort(),
    ).toEqual(['email', 'webhook']);
  });
});

describe('endpoint health', () => {
  it('disables a provider after N dead deliveries in a row, emails the admins, and recovers with the same webhook-ids', async () => {
    const admin = `admin-${randomUUID()}@example.com`;
    await createUserService(sql).createUser({
      email: admin,
      name: 'Ada Admin',
      role: 'admin',
      password: 'correct horse battery staple 1',
    });
    const path = `/flatline-${randomUUID()}`;
    let up = false;
    receiver.on(path, (_req, res) => void res.writeHead(up ? 204 : 502).end());
    const provider = await enroll(path);
    const since = new Date(Date.now() - 1_000);

    const first = aWebhookDecision({ providerIds: [provider.id] });
    await commands.send(commandOf(first));
    await deliveryOf(first.notificationId, 'dead');
    const second = aWebhookDecision({ providerIds: [provider.id] });
    await commands.send(commandOf(second));
    await deliveryOf(second.notificationId, 'dead');

    const disabled = await eventually(
      async () => (await providers.listDisabled()).find((p) => p.id === provider.id),
      { timeoutMs: 30_000 },
    );
    expect(disabled.disabled?.reason).toBe('2 deliveries in a row died after their last retry.');
    const [notice] = await eventually(async () => {
      const got = smtp.to(admin);
      return got.length > 0 ? got : undefined;
    });
    expect(notice.subject).toBe(`[Vigil] Provider ${provider.name} was disabled`);
    expect(notice.text).toContain(`${APP_URL}/settings/integrations/${provider.id}`);

    // While disabled: recorded as skipped, not sent.
    const third = aWebhookDecision({ providerIds: [provider.id] });
    await commands.send(commandOf(third));
    const skipped = await deliveryOf(third.notificationId, 'skipped');
    expect(skipped.skipCause).toBe('disabled');
    const sentWhileDown = receiver.at(path).length;

    up = true;
    const { recovered } = await providers.enable(provider.id, { recoverSince: since }, OPERATOR);
    expect(recovered).toBe(3);
    const ids = await Promise.all(
      [first, second, third].map(async (d) => (await deliveryOf(d.notificationId, 'delivered')).id),
    );
    const resent = receiver.at(path).slice(sentWhileDown);
    expect(resent.map((r) => r.headers['webhook-id']).sort()).toEqual([...ids].sort());
  });
});
