import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { Webhook } from 'standardwebhooks';
import { createLogger, type RunningApp } from '@vigil/config';
import { dlqTopicOf } from '@vigil/contracts';
import {
  DeliveryService,
  WebhookProviderService,
  createPgSqlClient,
  type SqlClient,
} from '@vigil/control-plane';
import { TopicCatalog, createKafkaClient } from '@vigil/kafka';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { eventually } from '../support/http-client';
import {
  CommandProducer,
  aDigestEntryDecision,
  aWebhookDecision,
  anEmailDecision,
  anInvestigationEmailDecision,
  anInvestigationWebhookDecision,
  commandOf,
} from '../support/notification-commands';
import { SmtpSink } from '../support/smtp-sink';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';

jest.setTimeout(60_000);

const APP_URL = 'https://vigil.example.com';
const WEBHOOK_TIMEOUT_MS = 1_000;
/** How long the digest spec's window stays open after its entries are sent. */
const WINDOW_STILL_OPEN_MS = 3_000;

let notifier: RunningApp;
let receiver: WebhookReceiver;
let smtp: SmtpSink;
let sql: SqlClient;
let providers: WebhookProviderService;
let deliveries: DeliveryService;
let kafka: Kafka;
let commands: CommandProducer;
let topics: TopicCatalog;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  smtp = await SmtpSink.start();
  notifier = await startNotifier({
    ...process.env,
    APP_URL,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'Vigil <alerts@vigil.example.com>',
    NOTIFIER_RETRY_SCHEDULE: '200ms,400ms',
    NOTIFIER_WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
    NOTIFIER_DIGEST_GRACE_MS: '300',
    NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
  });
  sql = createPgSqlClient(process.env.DATABASE_URL!, 4);
  providers = new WebhookProviderService(sql, { policy: { allowPrivate: true, allowlist: [] } });
  deliveries = new DeliveryService(sql);
  kafka = createKafkaClient(
    { brokers: process.env.KAFKA_BROKERS!.split(','), clientId: 'notifier-e2e' },
    createLogger('notifier-e2e', 'warn'),
  );
  topics = new TopicCatalog(process.env.VIGIL_TOPIC_PREFIX!, 3);
  commands = new CommandProducer(kafka, topics.notificationCommands);
  await commands.connect();
}, 60_000);

afterAll(async () => {
  await commands?.disconnect();
  await notifier?.stop();
  await sql?.close();
  await receiver?.stop();
  await smtp?.stop();
});

async function enroll(path: string, name = `Provider ${path}`) {
  const { provider, secret } = await providers.enroll({
    name,
    kind: 'custom',
    url: receiver.url(path),
  });
  return { id: provider.id, name, secret };
}

function receivedAt(path: string, count = 1): Promise<ReceivedWebhook[]> {
  return eventually(async () => {
    const got = receiver.at(path);
    return got.length >= count ? got : undefined;
  });
}

async function deliveryOf(notificationId: string) {
  return eventually(async () => (await deliveries.list({ notificationId }))[0]);
}

describe('notifier on the real stack', () => {
  it('POSTs the SPEC §6.2 payload, signed per Standard Webhooks, to each selected provider', async () => {
    const tines = await enroll('/tines', 'Tines');
    const custom = await enroll('/custom', 'Custom hook');
    const decision = aWebhookDecision({ providerIds: [tines.id, custom.id] });
    await commands.send(commandOf(decision));

    const [request] = await receivedAt('/tines');
    const payload = new Webhook(tines.secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    });
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe('Vigil-Webhooks/1');
    expect(payload).toEqual({
      notification: {
        id: decision.notificationId,
        title: 'Impossible travel: 2 new events',
        body: [
          'Detection "Impossible travel" has new events.',
          'New events since last notification: 2',
          'Events attached: 2',
          'Affected users: 2',
          'Time since last notification: 2 hours 5 minutes',
        ].join('\n'),
        action_url: `${APP_URL}/u/detections/${decision.detectionId}`,
      },
      delivery: { id: request.headers['webhook-id'], recipient_name: 'Tines', channel: 'webhook' },
      metadata: {
        detection_id: decision.detectionId,
        previous_count: 3,
        current_count: 5,
        since: decision.since,
        event_count: 2,
        user_count: 2,
        affected_users: ['ada@example.com', 'alan@example.com'],
        events: [
          {
            id: 'evt-4',
            person_name: 'Ada Lovelace',
            description: 'Sign-in from a new country',
            timestamp: decision.events[0].timestamp,
          },
          {
            id: 'evt-5',
            person_name: 'Alan Turing',
            description: 'Sign-in from two continents',
            timestamp: decision.events[1].timestamp,
          },
        ],
        truncated_count: 0,
      },
    });

    const [other] = await receivedAt('/custom');
    const otherPayload = JSON.parse(other.body) as {
      delivery: { id: string; recipient_name: string };
    };
    expect(otherPayload.delivery.recipient_name).toBe('Custom hook');
    expect(otherPayload.delivery.id).toBe(other.headers['webhook-id']);
    expect(otherPayload.delivery.id).not.toBe(request.headers['webhook-id']);
    // Signed with its own provider's secret only.
    expect(() =>
      new Webhook(tines.secret).verify(other.body, other.headers as Record<string, string>),
    ).toThrow();
  });

  it('sends the SPEC §6.3 payload for an investigation', async () => {
    const soar = await enroll('/soar', 'SOAR');
    const decision = anInvestigationWebhookDecision({ providerIds: [soar.id] });
    await commands.send(commandOf(decision));

    const [request] = await receivedAt('/soar');
    const payload = new Webhook(soar.secret).verify(
      request.body,
      request.headers as Record<string, string>,
    );
    expect(payload).toEqual({
      notification: {
        id: decision.notificationId,
        title: 'Investigation Update: Credential sharing by Ada',
        body: [
          'The investigation for Ada Lovelace has been completed.',
          'Outcome: Confirmed risk',
          'Risk score: 8.5',
        ].join('\n'),
        action_url: `${APP_URL}/u/investigations/${decision.investigationId}`,
      },
      delivery: { id: request.headers['webhook-id'], recipient_name: 'SOAR', channel: 'webhook' },
      investigation_metadata: {
        investigation_id: decision.investigationId,
        status: 'completed',
        outcome: 'confirmed_risk',
        headline: 'Credential sharing by Ada',
        person_name: 'Ada Lovelace',
        person_email: 'ada@example.com',
        detection_name: 'Password sharing',
      },
    });
  });

  it('emails each recipient once per detection, with the HTML escaped', async () => {
    const decision = anEmailDecision({
      detectionName: '<script>alert(1)</script> travel',
      recipients: ['soc-a@example.com', 'SOC-B@example.com'],
    });
    await commands.send(commandOf(decision));

    const mails = await eventually(async () => {
      const got = [...smtp.to('soc-a@example.com'), ...smtp.to('soc-b@example.com')];
      return got.length >= 2 ? got : undefined;
    });
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      expect(mail.from).toBe('alerts@vigil.example.com');
      expect(mail.subject).toBe('<script>alert(1)</script> travel: 2 new events');
      expect(mail.text).toContain('New events since last notification: 2');
      expect(mail.text).toContain('Affected users: ada@example.com, alan@example.com');
      expect(mail.text).toContain('Ada Lovelace: Sign-in from a new country');
      expect(mail.text).toContain(
        `Open the detection: ${APP_URL}/u/detections/${decision.detectionId}`,
      );
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; travel: 2 new events');
      expect(mail.html).toContain(`href="${APP_URL}/u/detections/${decision.detectionId}"`);
    }
  });

  it('emails an investigation update to its recipients', async () => {
    const decision = anInvestigationEmailDecision({ recipients: ['ir@example.com'] });
    await commands.send(commandOf(decision));
    const [mail] = await eventually(async () =>
      smtp.to('ir@example.com').length ? smtp.to('ir@example.com') : undefined,
    );
    expect(mail.subject).toBe('Investigation Update: Credential sharing by Ada');
    expect(mail.text).toContain('The investigation for Ada Lovelace has been completed.');
    expect(mail.text).toContain(`${APP_URL}/u/investigations/${decision.investigationId}`);
  });

  it('sends one digest per recipient per window covering every updated detection', async () => {
    const recipients = ['digest-1@example.com', 'digest-2@example.com'];
    // Sent while their window is open, as the processor does: the two detections' entries may
    // travel on different partitions, and only a window still open (plus the grace) is sure to
    // take both into its first digest; an entry after that goes to a follow-up digest.
    const windowEnd = Date.now() + WINDOW_STILL_OPEN_MS;
    const window = { windowStart: windowEnd - 60 * 60_000, windowEnd };
    const travel = aDigestEntryDecision({
      ...window,
      detectionName: 'Impossible travel',
      recipients,
      currentCount: 10,
      windowNewCount: 4,
      userCount: 1,
      affectedUsers: [{ email: 'ada@example.com', name: 'Ada' }],
    });
    const staleTravel = { ...travel, notificationId: 'older', currentCount: 8, windowNewCount: 2 };
    const download = aDigestEntryDecision({
      ...window,
      detectionName: 'Mass download',
      recipients: ['digest-1@example.com'],
      currentCount: 3,
      windowNewCount: 3,
      userCount: 1,
      affectedUsers: [{ email: 'grace@example.com', name: 'Grace' }],
    });
    // The older entry of the same window arrives last: the higher count is kept.
    await commands.send(commandOf(travel), commandOf(download), commandOf(staleTravel));

    const [first] = await eventually(async () =>
      smtp.to('digest-1@example.com').length ? smtp.to('digest-1@example.com') : undefined,
    );
    const [second] = await eventually(async () =>
      smtp.to('digest-2@example.com').length ? smtp.to('digest-2@example.com') : undefined,
    );
    expect(first.subject).toBe('Vigil digest: 2 detections with new events');
    expect(first.text).toContain(
      [
        'Impossible travel',
        '  New events: 4',
        '  Total events: 10',
        '  Affected users (1): ada@example.com',
      ].join('\n'),
    );
    expect(first.text).toContain(
      [
        'Mass download',
        '  New events: 3',
        '  Total events: 3',
        '  Affected users (1): grace@example.com',
      ].join('\n'),
    );
    expect(first.text).toContain(`${APP_URL}/u/detections/${travel.detectionId}`);
    expect(second.subject).toBe('Vigil digest: 1 detection with new events');
    expect(second.text).not.toContain('Mass download');

    // One digest each, even after further closer turns.
    await commands.send(commandOf(anEmailDecision({ recipients: ['digest-marker@example.com'] })));
    await eventually(async () => (smtp.to('digest-marker@example.com').length ? true : undefined));
    expect(smtp.to('digest-1@example.com')).toHaveLength(1);
    expect(smtp.to('digest-2@example.com')).toHaveLength(1);
  });

  it('adds nothing for a replayed command', async () => {
    const hook = await enroll('/replayed');
    const decision = aWebhookDecision({ providerIds: [hook.id] });
    await commands.send(commandOf(decision));
    await receivedAt('/replayed');
    await commands.send(commandOf(decision));
    // A later command on the same partition proves the replay has been consumed.
    const marker = await enroll('/replay-marker');
    await commands.send(
      commandOf(aWebhookDecision({ detectionId: decision.detectionId, providerIds: [marker.id] })),
    );
    await receivedAt('/replay-marker');

    expect(receiver.at('/replayed')).toHaveLength(1);
    expect(await deliveries.list({ notificationId: decision.notificationId })).toHaveLength(1);
  });

  it('retries a failing endpoint with the same webhook-id and body until it recovers', async () => {
    const hook = await enroll('/flaky');
    receiver.on('/flaky', (_req, res, nth) => void res.writeHead(nth === 1 ? 500 : 204).end());
    const decision = aWebhookDecision({ providerIds: [hook.id] });
    await commands.send(commandOf(decision));

    const [first, second] = await receivedAt('/flaky', 2);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    const delivery = await eventually(async () => {
      const found = await deliveryOf(decision.notificationId);
      return found.status === 'delivered' ? found : undefined;
    });
    expect(delivery.id).toBe(first.headers['webhook-id']);
    const attempts = await deliveries.attempts(delivery.id);
    expect(attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 204],
    ]);
    expect(attempts[0].error).toBe('HTTP 500');
  });

  it('marks a delivery dead once the schedule is exhausted, and resends it on request', async () => {
    const hook = await enroll('/down');
    let up = false;
    receiver.on('/down', (_req, res) => void res.writeHead(up ? 200 : 503).end('unavailable'));
    const decision = aWebhookDecision({ providerIds: [hook.id] });
    await commands.send(commandOf(decision));

    const dead = await eventually(async () => {
      const found = await deliveryOf(decision.notificationId);
      return found.status === 'dead' ? found : undefined;
    });
    expect(receiver.at('/down')).toHaveLength(3);
    expect((await deliveries.attempts(dead.id)).map((a) => a.error)).toEqual([
      'HTTP 503: unavailable',
      'HTTP 503: unavailable',
      'HTTP 503: unavailable',
    ]);

    up = true;
    await deliveries.resend(dead.id);
    await eventually(async () =>
      (await deliveries.find(dead.id))?.status === 'delivered' ? true : undefined,
    );
    const requests = receiver.at('/down');
    expect(requests).toHaveLength(4);
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([dead.id]));
    await expect(deliveries.resend(dead.id)).rejects.toMatchObject({ code: 'not_dead' });
  });

  it('treats a redirect as a failure and never follows it', async () => {
    const hook = await enroll('/redirect');
    receiver.on(
      '/redirect',
      (_req, res) => void res.writeHead(302, { location: receiver.url('/redirect-target') }).end(),
    );
    const decision = aWebhookDecision({ providerIds: [hook.id] });
    await commands.send(commandOf(decision));

    const delivery = await eventually(async () => {
      const found = await deliveryOf(decision.notificationId);
      return found.status === 'dead' ? found : undefined;
    });
    const attempts = await deliveries.attempts(delivery.id);
    expect(attempts[0]).toMatchObject({
      statusCode: 302,
      error: `Redirect to ${receiver.url('/redirect-target')} not followed`,
    });
    expect(receiver.at('/redirect-target')).toHaveLength(0);
  });

  it('delivers to a fast endpoint while a slow one is still hanging', async () => {
    const slow = await enroll('/slow');
    const fast = await enroll('/fast');
    let slowAnswered = false;
    let slowWasPendingWhenFastArrived: boolean | undefined;
    receiver.on('/slow', async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, WEBHOOK_TIMEOUT_MS * 3));
      slowAnswered = true;
      res.writeHead(200).end();
    });
    receiver.on('/fast', (_req, res) => {
      slowWasPendingWhenFastArrived = receiver.at('/slow').length > 0 && !slowAnswered;
      res.writeHead(200).end();
    });
    const detectionId = 'det-slow-and-fast';
    const slowDecision = aWebhookDecision({ detectionId, providerIds: [slow.id] });
    await commands.send(commandOf(slowDecision));
    await receivedAt('/slow');
    await commands.send(commandOf(aWebhookDecision({ detectionId, providerIds: [fast.id] })));

    await receivedAt('/fast');
    expect(slowWasPendingWhenFastArrived).toBe(true);
    const slowDelivery = await eventually(async () => {
      const found = await deliveryOf(slowDecision.notificationId);
      return found.attemptCount > 0 ? found : undefined;
    });
    const [attempt] = await deliveries.attempts(slowDelivery.id);
    expect(attempt.error).toBe(`No response within ${WEBHOOK_TIMEOUT_MS} ms`);
  });

  it('skips a provider deleted after the decision', async () => {
    const kept = await enroll('/kept');
    const gone = await enroll('/gone');
    await providers.delete(gone.id);
    await commands.send(commandOf(aWebhookDecision({ providerIds: [gone.id, kept.id] })));
    await receivedAt('/kept');
    expect(receiver.at('/gone')).toHaveLength(0);
  });

  it("records what a provider's filter holds back as skipped, with the reason, and sends the rest", async () => {
    const all = await enroll('/filter-all');
    const { provider: desk } = await providers.enroll({
      name: 'Investigations desk',
      kind: 'custom',
      url: receiver.url('/filter-desk'),
      filter: { subjects: 'investigations' },
    });
    const decision = aWebhookDecision({ providerIds: [all.id, desk.id] });
    await commands.send(commandOf(decision));
    await receivedAt('/filter-all');
    const recorded = await eventually(async () => {
      const rows = await deliveries.list({ notificationId: decision.notificationId });
      return rows.length === 2 ? rows : undefined;
    });
    const skipped = recorded.find((d) => d.target === desk.id);
    expect(skipped).toMatchObject({
      status: 'skipped',
      attemptCount: 0,
      lastError: 'Filtered out: this provider receives investigations only.',
    });
    expect(receiver.at('/filter-desk')).toHaveLength(0);
  });

  it('delivers every decision of a recalculation written in one record', async () => {
    const hook = await enroll('/shared');
    const webhook = aWebhookDecision({ providerIds: [hook.id] });
    const { providerIds: _p, kind: _k, channel: _c, ...same } = webhook;
    const email = anEmailDecision({
      ...same,
      notificationId: randomUUID(),
      recipients: ['shared@example.com'],
    });
    await commands.sendRecalculation(webhook, email);

    const [request] = await receivedAt('/shared');
    const payload = JSON.parse(request.body) as { metadata: { events: { id: string }[] } };
    expect(payload.metadata.events.map((e) => e.id)).toEqual(['evt-4', 'evt-5']);
    const [mail] = await eventually(async () =>
      smtp.to('shared@example.com').length ? smtp.to('shared@example.com') : undefined,
    );
    expect(mail.text).toContain('Ada Lovelace: Sign-in from a new country');
    expect(mail.text).toContain('Alan Turing: Sign-in from two continents');
    expect((await deliveryOf(webhook.notificationId)).notificationId).toBe(webhook.notificationId);
    expect((await deliveryOf(email.notificationId)).notificationId).toBe(email.notificationId);
  });

  it('sends records that are not commands to the DLQ with the reason', async () => {
    const consumer = kafka.consumer({ groupId: `dlq-reader-${Date.now()}` });
    await consumer.connect();
    await consumer.subscribe({
      topics: [dlqTopicOf(topics.notificationCommands)],
      fromBeginning: true,
    });
    const reasons: string[] = [];
    await consumer.run({
      eachMessage: async ({ message }) => {
        reasons.push(String(message.headers?.['dlq.reason']));
      },
    });
    try {
      await commands.sendRaw('garbage', Buffer.from('{not json'));
      await commands.send(commandOf({ ...aWebhookDecision(), kind: 'carrier-pigeon' } as never));
      await eventually(async () => (reasons.length >= 2 ? true : undefined));
      expect(reasons).toEqual(
        expect.arrayContaining([
          'Not a notification command record of version 1 or 2 (JSON)',
          'Unknown decision kind "carrier-pigeon"',
        ]),
      );
    } finally {
      await consumer.disconnect();
    }
  });
});
