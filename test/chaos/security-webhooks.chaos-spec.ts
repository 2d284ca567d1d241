import { createLogger, type RunningApp } from '@vigil/config';
import {
  DeliveryService,
  WebhookProviderService,
  createPgSqlClient,
  createUserService,
  type SqlClient,
} from '@vigil/control-plane';
import { TopicCatalog, createKafkaClient } from '@vigil/kafka';
import type { Kafka } from 'kafkajs';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { startWeb } from '../../apps/web/src/start-web';
import { eventually } from '../support/http-client';
import { CommandProducer, aWebhookDecision, commandOf } from '../support/notification-commands';
import { WebhookReceiver } from '../support/webhook-receiver';
import { PASSWORD } from '../support/web-harness';
import { postForm, signInOverHttp, type WebSession } from './support/web-session';

jest.setTimeout(120_000);

/**
 * A host name this machine resolves through /etc/hosts to loopback, standing for a "public"
 * receiver the operator allowlisted by name. (`localhost` is the other name every machine has.)
 */
const ALLOWLISTED_NAME = 'vm';

/** Every spelling of a non-public target the SSRF guard must refuse, `PORT` replaced. */
function hostileUrls(port: number): string[] {
  return [
    // loopback in every notation the URL parser accepts
    `http://127.0.0.1:${port}/hook`,
    `http://127.1:${port}/hook`,
    `http://127.0.1:${port}/hook`,
    `http://0x7f000001:${port}/hook`,
    `http://0x7f.0.0.1:${port}/hook`,
    `http://2130706433:${port}/hook`,
    `http://0177.0.0.1:${port}/hook`,
    `http://127.255.255.254:${port}/hook`,
    `http://[::1]:${port}/hook`,
    `http://[0:0:0:0:0:0:0:1]:${port}/hook`,
    // IPv4-mapped, IPv4-compatible and translated IPv6 forms of loopback
    `http://[::ffff:127.0.0.1]:${port}/hook`,
    `http://[::ffff:7f00:1]:${port}/hook`,
    `http://[::127.0.0.1]:${port}/hook`,
    `http://[64:ff9b::127.0.0.1]:${port}/hook`,
    `http://[2002:7f00:1::]:${port}/hook`,
    // unspecified
    `http://0.0.0.0:${port}/hook`,
    `http://0:${port}/hook`,
    `http://[::]:${port}/hook`,
    // private
    'http://10.0.0.1/hook',
    'http://10.255.255.255/hook',
    'http://172.16.0.1/hook',
    'http://172.31.255.254/hook',
    'http://192.168.0.1/hook',
    'http://192.168.255.254/hook',
    'http://[fc00::1]/hook',
    'http://[fd12:3456:789a::1]/hook',
    'http://100.64.0.1/hook',
    // link-local, cloud metadata
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.0.1/hook',
    'http://[fe80::1]/hook',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    // names that resolve to loopback
    `http://localhost:${port}/hook`,
    `http://LOCALHOST:${port}/hook`,
    `http://localhost.:${port}/hook`,
    `http://${ALLOWLISTED_NAME}:${port}/hook`.replace(ALLOWLISTED_NAME, 'runsc'),
    `https://localhost:${port}/hook`,
  ];
}

describe('webhook targets: SSRF at enrollment (web) and at delivery (notifier)', () => {
  let web: RunningApp;
  let notifier: RunningApp;
  let receiver: WebhookReceiver;
  let sql: SqlClient;
  let deliveries: DeliveryService;
  let kafka: Kafka;
  let commands: CommandProducer;
  let admin: WebSession;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    const env = {
      ...process.env,
      LOG_LEVEL: 'fatal',
      NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'false',
      NOTIFIER_WEBHOOK_TARGET_ALLOWLIST: ALLOWLISTED_NAME,
    };
    web = await startWeb({ ...env, WEB_PORT: '0' });
    notifier = await startNotifier({
      ...env,
      NOTIFIER_RETRY_SCHEDULE: '1h',
      NOTIFIER_WEBHOOK_TIMEOUT_MS: '2000',
    });
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    deliveries = new DeliveryService(sql);
    const email = `ssrf-admin-${Date.now()}@example.com`;
    await createUserService(sql).createUser({
      email,
      name: 'Ada',
      role: 'admin',
      password: PASSWORD,
    });
    admin = await signInOverHttp(web.url!, email, PASSWORD);
    kafka = createKafkaClient(
      { brokers: process.env.KAFKA_BROKERS!.split(','), clientId: 'security-webhooks' },
      createLogger('security-webhooks', 'warn'),
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
    await web?.stop();
    await sql?.close();
    await receiver?.stop();
  });

  async function providerCount(): Promise<number> {
    const { rows } = await sql.query<{ n: string }>('SELECT count(*) AS n FROM webhook_providers');
    return Number(rows[0].n);
  }

  function enrollInWeb(url: string): Promise<Response> {
    return postForm(`${web.url}/settings/integrations`, admin.cookie, {
      _csrf: admin.csrf,
      name: 'Hostile',
      kind: 'custom',
      url,
    });
  }

  it('refuses at enrollment every loopback, private, link-local, mapped or resolving-to-private URL, and stores nothing', async () => {
    const port = Number(new URL(receiver.url('/')).port);
    const before = await providerCount();
    const accepted: string[] = [];
    for (const url of hostileUrls(port)) {
      const response = await enrollInWeb(url);
      const page = await response.text();
      if (
        response.status !== 422 ||
        !/must be public|could not be (resolved|found)|not a valid/.test(page)
      )
        accepted.push(`${url} → ${response.status}`);
    }
    expect(accepted).toEqual([]);
    expect(await providerCount()).toBe(before);
    expect(receiver.received).toHaveLength(0);
    // The check itself is not a blanket refusal: the allowlisted name is enrolled.
    const allowed = await enrollInWeb(`http://${ALLOWLISTED_NAME}:${port}/ok`);
    expect(allowed.status).toBe(201);
    expect(await providerCount()).toBe(before + 1);
  });

  it('refuses at delivery every non-public target of a provider stored earlier, without connecting; follows no redirect to loopback', async () => {
    const port = Number(new URL(receiver.url('/')).port);
    // Providers enrolled while private targets were allowed, or whose name was re-pointed since:
    // the notifier must check again where it connects.
    const lenient = new WebhookProviderService(sql, {
      policy: { allowPrivate: true, allowlist: [] },
    });
    const hostile = hostileUrls(port);
    const ids: string[] = [];
    const urlOf = new Map<string, string>();
    for (const url of hostile) {
      // Names that do not resolve at all cannot be stored, even by a lenient policy.
      if (url.includes('localhost.:')) continue;
      const { provider } = await lenient.enroll({ name: 'Stored', kind: 'custom', url });
      ids.push(provider.id);
      urlOf.set(provider.id, url);
    }
    // A receiver that looks public (allowlisted by name) and redirects to loopback.
    receiver.on(
      '/redirect',
      (_request, res) => void res.writeHead(302, { location: receiver.url('/hook') }).end(),
    );
    const redirecting = (
      await lenient.enroll({
        name: 'Redirecting',
        kind: 'custom',
        url: `http://${ALLOWLISTED_NAME}:${port}/redirect`,
      })
    ).provider.id;

    const decision = aWebhookDecision({ providerIds: [...ids, redirecting] });
    await commands.send(commandOf(decision));
    const attempted = await eventually(
      async () => {
        const all = await deliveries.list({ notificationId: decision.notificationId });
        if (all.length < ids.length + 1) return undefined;
        const withAttempts = await Promise.all(
          all.map(async (d) => ({ delivery: d, attempts: await deliveries.attempts(d.id) })),
        );
        return withAttempts.every((d) => d.attempts.length > 0) ? withAttempts : undefined;
      },
      { timeoutMs: 60_000 },
    );
    const problems: string[] = [];
    for (const { delivery, attempts } of attempted) {
      if (delivery.target === redirecting) {
        expect(attempts[0]).toMatchObject({
          statusCode: 302,
          error: `Redirect to ${receiver.url('/hook')} not followed`,
        });
        continue;
      }
      const error = attempts[0].error ?? '';
      // Refused by the guard, not a connection that failed or timed out.
      if (attempts[0].statusCode !== null || !/must be public/.test(error))
        problems.push(`${urlOf.get(delivery.target)}: ${attempts[0].statusCode} ${error}`);
    }
    expect(problems).toEqual([]);
    expect(receiver.at('/redirect')).toHaveLength(1);
    expect(receiver.at('/hook')).toHaveLength(0);
  });
});
