import type { ServerResponse } from 'node:http';
import type { Kafka } from 'kafkajs';
import { createLogger, type RunningApp } from '@vigil/config';
import {
  DeliveryService,
  WebhookProviderService,
  createPgSqlClient,
  parseRetrySchedule,
  type DeliveryView,
  type SqlClient,
} from '@vigil/control-plane';
import { TopicCatalog, createKafkaClient } from '@vigil/kafka';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { eventually } from '../support/http-client';
import { CommandProducer, aWebhookDecision, commandOf } from '../support/notification-commands';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';
import { chaosScale } from './support/chaos-scale';
import { summarize } from './support/latency-percentiles';

/**
 * Webhook receivers that misbehave in every way a real one does: never answer, answer 500,
 * answer slowly, reset the connection, redirect. Each delivery follows the retry schedule and
 * ends delivered or dead with its attempts recorded, and a bad endpoint never delays the
 * deliveries to a healthy one.
 */
const WEBHOOK_TIMEOUT_MS = chaosScale(3_000, 10_000);
const SLOW_ANSWER_MS = chaosScale(2_000, 8_000);
const RETRY_SCHEDULE = chaosScale('500ms,1s', '5s,10s,20s');
const RETRY_DELAYS = parseRetrySchedule(RETRY_SCHEDULE);
const ATTEMPTS_UNTIL_DEAD = RETRY_DELAYS.length + 1;
/** Endpoints that never answer, all hogging the notifier at once. */
const HOGGING_ENDPOINTS = chaosScale(6, 12);
/** Notifications measured in each latency run, one every MEASURE_INTERVAL_MS. */
const MEASURED = chaosScale(40, 300);
const MEASURE_INTERVAL_MS = 100;
/** Notifications to the hogging endpoints only, sent before the measured ones. */
const HOG_BACKLOG = chaosScale(10, 40);

jest.setTimeout(chaosScale(180_000, 900_000));

let notifier: RunningApp;
let receiver: WebhookReceiver;
let sql: SqlClient;
let providers: WebhookProviderService;
let deliveries: DeliveryService;
let kafka: Kafka;
let commands: CommandProducer;
/** When each notification id reached a path, from the receiver's clock. */
const arrivals = new Map<string, number>();

const never = (): Promise<void> => new Promise<void>(() => undefined);
const answer = (status: number) => (_: ReceivedWebhook, response: ServerResponse) => {
  response.writeHead(status).end(status >= 400 ? 'upstream exploded' : 'ok');
};

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  notifier = await startNotifier({
    ...process.env,
    NOTIFIER_RETRY_SCHEDULE: RETRY_SCHEDULE,
    NOTIFIER_WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
    NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
  });
  sql = createPgSqlClient(process.env.DATABASE_URL!, 4);
  providers = new WebhookProviderService(sql, { policy: { allowPrivate: true, allowlist: [] } });
  deliveries = new DeliveryService(sql);
  kafka = createKafkaClient(
    { brokers: process.env.KAFKA_BROKERS!.split(','), clientId: 'misbehaving-endpoints' },
    createLogger('misbehaving-endpoints', 'warn'),
  );
  const topics = new TopicCatalog(process.env.VIGIL_TOPIC_PREFIX!, 3);
  commands = new CommandProducer(kafka, topics.notificationCommands);
  await commands.connect();
}, 60_000);

afterAll(async () => {
  await commands?.disconnect();
  await notifier?.stop();
  await sql?.close();
  await receiver?.stop();
});

async function enroll(path: string): Promise<string> {
  const { provider } = await providers.enroll({
    name: `Receiver ${path}`,
    kind: 'custom',
    url: receiver.url(path),
  });
  return provider.id;
}

/** A healthy endpoint that notes when each notification arrived. */
function healthyAt(path: string): void {
  receiver.on(path, (request, response) => {
    const { notification } = JSON.parse(request.body) as { notification: { id: string } };
    arrivals.set(`${path} ${notification.id}`, Date.now());
    response.writeHead(200).end('ok');
  });
}

async function finalDelivery(notificationId: string, timeoutMs: number): Promise<DeliveryView> {
  return eventually(
    async () => {
      const [delivery] = await deliveries.list({ notificationId });
      return delivery && (delivery.status === 'delivered' || delivery.status === 'dead')
        ? delivery
        : undefined;
    },
    { timeoutMs, intervalMs: 200 },
  );
}

describe('webhook endpoints that misbehave', () => {
  it('retries each failure on the schedule and ends every delivery delivered or dead, with its attempts', async () => {
    const elsewhere = '/redirect-target';
    receiver.on('/timeout', never);
    receiver.on('/error-500', answer(500));
    receiver.on('/slow', async (_, response) => {
      await new Promise((resolve) => setTimeout(resolve, SLOW_ANSWER_MS));
      response.writeHead(200).end('ok');
    });
    receiver.on('/reset', (_, response) => {
      response.socket?.destroy();
    });
    receiver.on('/redirect', (_, response) => {
      response.writeHead(302, { location: receiver.url(elsewhere) }).end();
    });
    receiver.on('/flaky', (_, response, nth) => answer(nth === 1 ? 503 : 204)(_, response));
    healthyAt('/healthy');

    const endpoints = [
      '/timeout',
      '/error-500',
      '/slow',
      '/reset',
      '/redirect',
      '/flaky',
      '/healthy',
    ];
    const sent = new Map<string, string>();
    for (const path of endpoints) {
      const decision = aWebhookDecision({ providerIds: [await enroll(path)] });
      sent.set(path, decision.notificationId);
      await commands.send(commandOf(decision));
    }

    const worstCaseMs =
      ATTEMPTS_UNTIL_DEAD * WEBHOOK_TIMEOUT_MS +
      RETRY_DELAYS.reduce((a, b) => a + b * 1.1, 0) +
      30_000;
    const outcome = new Map<string, { delivery: DeliveryView; attempts: AttemptSummary[] }>();
    await Promise.all(
      endpoints.map(async (path) => {
        const delivery = await finalDelivery(sent.get(path)!, worstCaseMs);
        const attempts = (await deliveries.attempts(delivery.id)).map((a) => ({
          at: a.attemptedAt.getTime(),
          statusCode: a.statusCode,
          latencyMs: a.latencyMs,
          error: a.error,
        }));
        outcome.set(path, { delivery, attempts });
      }),
    );
    const report = Object.fromEntries(
      [...outcome].map(([path, { delivery, attempts }]) => [
        path,
        `${delivery.status} after ${attempts.length} attempt(s): ${attempts
          .map((a) => `${a.statusCode ?? '-'} ${Math.round(a.latencyMs)}ms ${a.error ?? ''}`.trim())
          .join(' | ')}`,
      ]),
    );
    console.log('misbehaving endpoints:', report);

    const of = (path: string) => outcome.get(path)!;
    for (const path of ['/timeout', '/error-500', '/reset', '/redirect']) {
      const { delivery, attempts } = of(path);
      expect({ path, status: delivery.status, attempts: attempts.length }).toEqual({
        path,
        status: 'dead',
        attempts: ATTEMPTS_UNTIL_DEAD,
      });
      expect(delivery.attemptCount).toBe(ATTEMPTS_UNTIL_DEAD);
      expect(delivery.nextAttemptAt).toBeNull();
      expect(delivery.lastError).toBe(attempts.at(-1)!.error);
      // Each retry waits at least its delay of the schedule after the attempt before it ended.
      attempts.slice(1).forEach((attempt, i) => {
        const previous = attempts[i];
        expect(attempt.at - (previous.at + previous.latencyMs)).toBeGreaterThanOrEqual(
          RETRY_DELAYS[i] - 50,
        );
      });
    }
    for (const attempt of of('/timeout').attempts) {
      expect(attempt.statusCode).toBeNull();
      expect(attempt.error).toBe(`No response within ${WEBHOOK_TIMEOUT_MS} ms`);
      expect(attempt.latencyMs).toBeGreaterThanOrEqual(WEBHOOK_TIMEOUT_MS - 50);
      expect(attempt.latencyMs).toBeLessThan(WEBHOOK_TIMEOUT_MS + 2_000);
    }
    for (const attempt of of('/error-500').attempts) {
      expect(attempt.statusCode).toBe(500);
      expect(attempt.error).toBe('HTTP 500: upstream exploded');
    }
    for (const attempt of of('/reset').attempts) {
      expect(attempt.statusCode).toBeNull();
      expect(attempt.error).toMatch(/ECONNRESET|socket hang up/);
    }
    for (const attempt of of('/redirect').attempts) {
      expect(attempt.statusCode).toBe(302);
      expect(attempt.error).toBe(`Redirect to ${receiver.url(elsewhere)} not followed`);
    }
    expect(receiver.at(elsewhere)).toEqual([]);
    // The endpoints saw each attempt, no more.
    expect(receiver.at('/timeout')).toHaveLength(ATTEMPTS_UNTIL_DEAD);
    expect(receiver.at('/error-500')).toHaveLength(ATTEMPTS_UNTIL_DEAD);

    const slow = of('/slow');
    expect(slow.delivery.status).toBe('delivered');
    expect(slow.attempts).toHaveLength(1);
    expect(slow.attempts[0].statusCode).toBe(200);
    expect(slow.attempts[0].latencyMs).toBeGreaterThanOrEqual(SLOW_ANSWER_MS - 50);

    const flaky = of('/flaky');
    expect(flaky.delivery.status).toBe('delivered');
    expect(flaky.attempts.map((a) => a.statusCode)).toEqual([503, 204]);
    expect(flaky.attempts[1].at - flaky.attempts[0].at).toBeGreaterThanOrEqual(RETRY_DELAYS[0]);

    const healthy = of('/healthy');
    expect(healthy.delivery.status).toBe('delivered');
    expect(healthy.attempts.map((a) => a.statusCode)).toEqual([200]);
    // Every retried delivery carried the same webhook-id on each attempt.
    for (const path of ['/timeout', '/error-500']) {
      const ids = new Set(receiver.at(path).map((r) => r.headers['webhook-id']));
      expect(ids).toEqual(new Set([of(path).delivery.id]));
    }
  });

  it('never lets endpoints that do not answer delay the deliveries to a healthy one', async () => {
    const healthyId = await enroll('/measured');
    healthyAt('/measured');
    const hogIds: string[] = [];
    for (let i = 0; i < HOGGING_ENDPOINTS; i += 1) {
      receiver.on(`/hog-${i}`, never);
      hogIds.push(await enroll(`/hog-${i}`));
    }

    /** Sends MEASURED notifications, each to `providerIds`, and returns the healthy latencies. */
    async function measure(providerIds: string[]): Promise<number[]> {
      const sentAt = new Map<string, number>();
      for (let i = 0; i < MEASURED; i += 1) {
        const decision = aWebhookDecision({ providerIds });
        sentAt.set(decision.notificationId, Date.now());
        await commands.send(commandOf(decision));
        await new Promise((resolve) => setTimeout(resolve, MEASURE_INTERVAL_MS));
      }
      await eventually(
        async () =>
          [...sentAt.keys()].every((id) => arrivals.has(`/measured ${id}`)) ? true : undefined,
        { timeoutMs: 120_000, intervalMs: 200 },
      );
      return [...sentAt].map(([id, at]) => arrivals.get(`/measured ${id}`)! - at);
    }

    const alone = summarize(await measure([healthyId]));

    // A backlog of deliveries to endpoints that never answer, then the same measurement with
    // every notification also going to all of them.
    for (let i = 0; i < HOG_BACKLOG; i += 1) {
      await commands.send(commandOf(aWebhookDecision({ providerIds: hogIds })));
    }
    await eventually(async () => (receiver.at('/hog-0').length > 0 ? true : undefined), {
      timeoutMs: 30_000,
    });
    const hogged = summarize(await measure([...hogIds, healthyId]));

    console.log(
      `healthy receiver latency (ms), ${MEASURED} notifications each:\n` +
        `  no bad endpoints:           p50 ${alone.p50}  p99 ${alone.p99}  max ${alone.max}\n` +
        `  ${HOGGING_ENDPOINTS} endpoints never answering: p50 ${hogged.p50}  p99 ${hogged.p99}  max ${hogged.max}` +
        `  (timeout ${WEBHOOK_TIMEOUT_MS} ms)`,
    );
    // Generous: scheduling noise on a busy 2-core machine, but far below one timeout.
    expect(hogged.p50).toBeLessThanOrEqual(Math.max(3 * alone.p50, alone.p50 + 250));
    expect(hogged.p99).toBeLessThanOrEqual(Math.max(3 * alone.p99, alone.p99 + 1_000));
    expect(hogged.p99).toBeLessThan(WEBHOOK_TIMEOUT_MS / 2);
  });
});

interface AttemptSummary {
  at: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}
