import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import { createLogger, routeLogsTo, type RunningApp } from '@vigil/config';
import type { DetectionEventRecord } from '@vigil/contracts';
import {
  SqlNotificationSettingsStore,
  WebhookProviderService,
  createApiTokenService,
  createPgSqlClient,
  createUserService,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import { TopicCatalog, createKafkaClient, openInProcessLog } from '@vigil/kafka';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import { startAllInOne } from '../../apps/all-in-one/src/start-all-in-one';
import { startApi } from '../../apps/api/src/start-api';
import { startIndexer } from '../../apps/indexer/src/start-indexer';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { startStreamProcessor } from '../../apps/stream-processor/src/start-stream-processor';
import { startWeb } from '../../apps/web/src/start-web';
import { cookieHeader, cookiesSetBy, csrfFieldOf, postForm } from '../chaos/support/web-session';
import { openEnvironmentSql } from '../support/capability-environments';
import { anEventInput } from '../support/factories';
import { eventually, request } from '../support/http-client';
import {
  dashboardExpressions,
  metricSelectors,
  type PanelExpression,
} from '../support/observability-expressions';
import { PrometheusServer, type ScrapeTarget } from '../support/prometheus-server';
import { SmtpSink } from '../support/smtp-sink';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * The shipped dashboard and alert rules against a real Prometheus (Debian's package) scraping the
 * apps' ops listeners: every panel's query returns data, every alert rule evaluates over series
 * that exist, and the dead-letter and dead-delivery alerts fire once a bad record and a failing
 * webhook endpoint have done their work. Run on the real servers (each app on its own ops port)
 * and on the embedded all-in-one process (one ops port for every app).
 *
 * Alert rules are loaded as shipped except their `for:` durations, set to 0s so an alert fires on
 * its first evaluation; the windows of their expressions are unchanged. A conditional alert
 * returns nothing while all is well, so besides evaluating each rule, the test checks that every
 * series it reads exists (`metricSelectors`). The one matcher that selects a failure itself,
 * 5xx answers, has series on the real servers (an API whose Elasticsearch goes away answers
 * 503); the embedded process has no backend that can go away, so there it is checked by the
 * metric alone.
 */
jest.setTimeout(240_000);

const ROOT = join(__dirname, '../..');
const ALERT_RULES = join(ROOT, 'deploy/prometheus/alerts.yml');
const DASHBOARD = join(ROOT, 'deploy/grafana/dashboards/vigil.json');
const MUST_FIRE = ['VigilRecordsDeadLettered', 'VigilDeliveriesDead'];
const RATE_LIMIT_PER_MINUTE = 20;
const SIGN_IN_PASSWORD = 'a long enough password';
const run = randomUUID().slice(0, 8);

/** What the apps need besides their servers: a mail sink, and a webhook endpoint that fails. */
interface Outside {
  smtp: SmtpSink;
  receiver: WebhookReceiver;
  failingUrl: string;
}

async function startOutside(): Promise<Outside> {
  const smtp = await SmtpSink.start();
  const receiver = await WebhookReceiver.start();
  receiver.on('/failing', (_request, response) => void response.writeHead(500).end('boom'));
  return { smtp, receiver, failingUrl: receiver.url('/failing') };
}

function appEnv(base: NodeJS.ProcessEnv, outside: Outside): NodeJS.ProcessEnv {
  return {
    ...base,
    LOG_LEVEL: 'info',
    OPS_PORT: '0',
    API_PORT: '0',
    INGEST_PORT: '0',
    WEB_PORT: '0',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(outside.smtp.port),
    // Three quick attempts, then the delivery is dead.
    NOTIFIER_RETRY_SCHEDULE: '100ms,100ms',
    NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
    API_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_PER_MINUTE),
    PROCESSOR_TIMER_INTERVAL_MS: '200',
  };
}

interface Tokens {
  write: string;
  limited: string;
  userEmail: string;
}

/**
 * Immediate notifications by email (to the sink) and webhook (to the failing endpoint), a token
 * to ingest and query with, one to spend on the rate limit, and a user to sign in as.
 */
async function prepareControlPlane(sql: SqlClient, outside: Outside): Promise<Tokens> {
  const providers = new WebhookProviderService(sql, {
    policy: { allowPrivate: true, allowlist: [] },
  });
  const { provider } = await providers.enroll({
    name: 'Failing SOAR',
    kind: 'custom',
    url: outside.failingUrl,
  });
  await new SqlNotificationSettingsStore(sql).saveGlobal({
    ...DEFAULT_NOTIFICATION_SETTINGS,
    frequency: 'immediate',
    webhookEnabled: true,
    webhookProviderIds: [provider.id],
    emailEnabled: true,
    recipients: ['soc@example.com'],
  });
  const tokens = createApiTokenService(sql);
  const write = await tokens.createToken({ name: 'pipeline', permissions: { detection: 'write' } });
  const limited = await tokens.createToken({ name: 'greedy', permissions: { detection: 'read' } });
  const userEmail = `ops-${run}@example.com`;
  await createUserService(sql).createUser({
    email: userEmail,
    name: 'Ops',
    role: 'member',
    password: SIGN_IN_PASSWORD,
  });
  return { write: write.value, limited: limited.value, userEmail };
}

interface Urls {
  api: string;
  ingest: string;
  web: string;
}

/** A failed sign-in over HTTP: the form, its CSRF cookie and field, a wrong password. */
async function failSignIn(webUrl: string, email: string): Promise<number> {
  const form = await fetch(`${webUrl}/sign-in`);
  const cookies = cookiesSetBy(form);
  const answer = await postForm(`${webUrl}/sign-in`, cookieHeader(cookies), {
    _csrf: csrfFieldOf(await form.text()),
    email,
    password: `${SIGN_IN_PASSWORD} but wrong`,
  });
  return answer.status;
}

/** Events in, queries out, a refused query, a spent rate limit, a failed sign-in. */
async function driveTraffic(urls: Urls, tokens: Tokens): Promise<void> {
  const detection = `det-ops-${run}`;
  const events = Array.from({ length: 4 }, () => anEventInput({ detection_id: detection }));
  const ingested = await request('POST', `${urls.ingest}/ingest/v1/detection-events`, {
    token: tokens.write,
    json: [...events, { ...anEventInput(), employee_email: 'not an address' }],
  });
  expect(ingested.status).toBe(202);
  expect(ingested.body).toMatchObject({ accepted: 4, rejected: 1 });

  const found = await eventually(async () => {
    const answer = await request('POST', `${urls.api}/api-key/v1/events`, {
      token: tokens.write,
      json: { query: `id = '${events[0].id}'` },
    });
    return answer.status === 200 && answer.body.items.length === 1 ? answer : undefined;
  });
  expect(found.body.items[0].id).toBe(events[0].id);
  const refused = await request('POST', `${urls.api}/api-key/v1/events`, {
    token: tokens.write,
    json: { query: "risk_score > 'high'" },
  });
  expect(refused.body.error.code).toBe('invalid_query');
  const statuses: number[] = [];
  for (let i = 0; i <= RATE_LIMIT_PER_MINUTE; i++) {
    statuses.push(
      (await request('POST', `${urls.api}/api-key/v1/events`, { token: tokens.limited, json: {} }))
        .status,
    );
  }
  expect(statuses).toContain(429);
  expect(await failSignIn(urls.web, tokens.userEmail)).toBe(401);
}

/** Waits until Prometheus scrapes every target. */
async function waitForTargets(prometheus: PrometheusServer, count: number): Promise<void> {
  await eventually(
    async () => {
      const up = await prometheus.query('up == 1');
      return up.length === count ? true : undefined;
    },
    { timeoutMs: 30_000 },
  );
}

/**
 * The checks both runs make once traffic went through: the alerts that must fire fire, every
 * dashboard query returns data, every alert rule evaluates over series that exist. Returns the
 * selectors that had no series with their matchers and were checked by metric name only.
 */
async function checkDashboardAndAlerts(prometheus: PrometheusServer): Promise<string[]> {
  await eventually(
    async () => {
      const firing = await prometheus.firing();
      return MUST_FIRE.every((name) => firing.has(name)) ? true : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 1_000 },
  ).catch(async (error: unknown) => {
    throw new Error(
      `${String(error)}; firing: ${[...(await prometheus.firing())].join(', ') || 'none'}`,
    );
  });

  const empty: PanelExpression[] = [];
  for (const panel of dashboardExpressions(DASHBOARD)) {
    const samples = await eventually(
      async () => {
        const result = await prometheus.query(panel.expr);
        return result.length > 0 ? result : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 1_000 },
    ).catch(() => []);
    if (samples.length === 0) empty.push(panel);
  }
  expect(empty).toEqual([]);

  const rules = (await prometheus.rules()).filter((rule) => rule.type === 'alerting');
  expect(rules.map((rule) => rule.name).sort()).toEqual(
    [
      'VigilConsumerLagGrowing',
      'VigilDeliveriesDead',
      'VigilDeliverySuccessRateLow',
      'VigilDependencyDown',
      'VigilOpsEndpointDown',
      'VigilProcessorAbortingTransactions',
      'VigilProvidersDisabled',
      'VigilRecordsDeadLettered',
      'VigilServerErrors',
    ].sort(),
  );
  const missing: string[] = [];
  const byNameOnly: string[] = [];
  for (const rule of rules) {
    await prometheus.query(rule.query);
    for (const selector of metricSelectors(rule.query)) {
      if ((await prometheus.query(`count(${selector})`)).length > 0) continue;
      const name = selector.replace(/\{.*$/, '');
      if ((await prometheus.query(`count(${name})`)).length > 0) byNameOnly.push(selector);
      else missing.push(`${rule.name}: ${selector}`);
    }
  }
  expect(missing).toEqual([]);
  return [...new Set(byNameOnly)];
}

/** A TCP relay to a server, closed at will: the server goes away for whoever uses the relay. */
class Relay {
  private readonly sockets = new Set<Socket>();
  private constructor(private readonly server: Server) {}

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  static async to(host: string, port: number): Promise<Relay> {
    const relay: Relay = new Relay(
      createServer((client) => {
        const upstream = connect(port, host);
        for (const socket of [client, upstream]) {
          relay.sockets.add(socket);
          socket.on('close', () => relay.sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      }),
    );
    await new Promise<void>((resolve) => relay.server.listen(0, '127.0.0.1', resolve));
    return relay;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe('observability on the real servers', () => {
  const lines: string[] = [];
  const capture: DestinationStream = { write: (line: string) => void lines.push(line) };
  const apps: RunningApp[] = [];
  let outside: Outside;
  let sql: SqlClient;
  let prometheus: PrometheusServer | undefined;
  let tokens: Tokens;

  beforeAll(async () => {
    routeLogsTo(capture);
    outside = await startOutside();
    const env = appEnv(process.env, outside);
    // The processor reads the settings at start: they are saved before it runs.
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    await runMigrations(sql);
    tokens = await prepareControlPlane(sql, outside);
    for (const start of [startIndexer, startStreamProcessor, startNotifier, startIngest]) {
      apps.push(await start(env));
    }
    apps.push(await startApi(env), await startWeb(env));
    // A second API whose Elasticsearch goes away once it runs: it answers 503 and is not ready.
    const elasticsearch = new URL(env.ELASTICSEARCH_URL!);
    const relay = await Relay.to(elasticsearch.hostname, Number(elasticsearch.port));
    apps.push(await startApi({ ...env, ELASTICSEARCH_URL: `http://127.0.0.1:${relay.port}` }));
    await relay.close();
  });

  afterAll(async () => {
    await prometheus?.stop();
    for (const app of apps.reverse()) await app.stop();
    routeLogsTo(undefined);
    await sql?.close();
    await outside?.smtp.stop();
    await outside?.receiver.stop();
  });

  it('feeds every dashboard panel and alert rule, fires the dead-letter and dead-delivery alerts, and logs each request', async () => {
    const [indexer, processor, notifier, ingest, api, web, apiWithoutSearch] = apps;
    const targets: ScrapeTarget[] = [
      { job: 'vigil-indexer', url: indexer.opsUrl! },
      { job: 'vigil-stream-processor', url: processor.opsUrl! },
      { job: 'vigil-notifier', url: notifier.opsUrl! },
      { job: 'vigil-ingest', url: ingest.opsUrl! },
      { job: 'vigil-api', url: api.opsUrl! },
      { job: 'vigil-web', url: web.opsUrl! },
      { job: 'vigil-api', url: apiWithoutSearch.opsUrl! },
    ];
    prometheus = await PrometheusServer.start({ targets, rulesFile: ALERT_RULES });
    await waitForTargets(prometheus, targets.length);

    await driveTraffic({ api: api.url!, ingest: ingest.url!, web: web.url! }, tokens);
    const unavailable = await request('POST', `${apiWithoutSearch.url}/api-key/v1/events`, {
      token: tokens.write,
      json: {},
    });
    expect(unavailable.status).toBe(503);
    const readiness = await request('GET', `${apiWithoutSearch.opsUrl}/readyz`);
    expect(readiness.status).toBe(503);
    expect(readiness.body).toMatchObject({
      status: 'unavailable',
      failing: [{ dependency: 'elasticsearch' }],
    });

    // A record that is not Avro at all, straight to the topic: both consumers dead-letter it.
    const kafka = createKafkaClient(
      { brokers: process.env.KAFKA_BROKERS!.split(','), clientId: `observability-${run}` },
      createLogger('observability-test', 'warn'),
    );
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic: new TopicCatalog(process.env.VIGIL_TOPIC_PREFIX!, 1).detectionEvents,
      messages: [{ key: `det-bad-${run}`, value: Buffer.from('not an Avro record') }],
    });
    await producer.disconnect();

    expect(await checkDashboardAndAlerts(prometheus)).toEqual([]);
    // The API without Elasticsearch: its 503 and its failing readiness fire their alerts.
    const dependencyDown = await eventually(async () => {
      const alerts = await prometheus!.query(
        'ALERTS{alertstate="firing",alertname=~"VigilServerErrors|VigilDependencyDown"}',
      );
      return alerts.length >= 2 ? alerts : undefined;
    });
    expect(dependencyDown.map((alert) => alert.metric)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ alertname: 'VigilServerErrors', app: 'api' }),
        expect.objectContaining({
          alertname: 'VigilDependencyDown',
          app: 'api',
          dependency: 'elasticsearch',
        }),
      ]),
    );
    // ... and nothing else is down.
    expect(await prometheus.query('min by (app, dependency) (vigil_dependency_up) == 0')).toEqual([
      expect.objectContaining({ metric: { app: 'api', dependency: 'elasticsearch' } }),
    ]);

    // One line per request, carrying the id the response answered and the token's id only.
    const answer = await fetch(`${api.url}/api-key/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.write}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const requestId = answer.headers.get('x-request-id')!;
    const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, any>);
    const logged = await eventually(async () =>
      parsed().find((line) => line.req?.id === requestId),
    );
    expect(logged).toMatchObject({
      level: 30,
      name: 'api',
      msg: 'request completed',
      req: { id: requestId, method: 'POST', path: '/api-key/v1/events' },
      res: { statusCode: 200 },
      route: '/api-key/v1/events',
      tokenId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      durationMs: expect.any(Number),
    });
    expect(JSON.stringify(logged)).not.toContain(tokens.write.slice(5, 20));
    expect(lines.filter((line) => line.includes(`"${requestId}"`))).toHaveLength(1);
    // The account exists: the line names it by its id, never by its email address.
    const signInFailure = parsed().find((line) => line.event === 'sign_in.failed');
    expect(signInFailure).toMatchObject({ level: 40, reason: 'bad_credentials' });
    expect(signInFailure).toHaveProperty('userId');
    expect(JSON.stringify(signInFailure)).not.toContain(tokens.userEmail);
  });
});

describe('observability of the embedded all-in-one process', () => {
  let outside: Outside;
  let dataDir: string;
  let sql: SqlClient;
  let app: Awaited<ReturnType<typeof startAllInOne>> | undefined;
  let prometheus: PrometheusServer | undefined;

  afterAll(async () => {
    await prometheus?.stop();
    await app?.stop();
    await sql?.close();
    await outside?.smtp.stop();
    await outside?.receiver.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves every app once on one ops port, and feeds the same panels and alerts', async () => {
    outside = await startOutside();
    dataDir = mkdtempSync(join(tmpdir(), 'vigil-observability-'));
    const embedded: NodeJS.ProcessEnv = { ...process.env, VIGIL_DATA_DIR: dataDir };
    for (const server of ['KAFKA_BROKERS', 'SCHEMA_REGISTRY_URL', 'ELASTICSEARCH_URL']) {
      delete embedded[server];
    }
    delete embedded.DATABASE_URL;
    const env: NodeJS.ProcessEnv = {
      ...appEnv(embedded, outside),
      LOG_LEVEL: 'error',
      DEMO_INBOX_PORT: '0',
      DEMO_SMTP_PORT: '0',
    };
    // The embedded database belongs to this process: the apps share what the test opens here.
    sql = await openEnvironmentSql(env);
    const tokens = await prepareControlPlane(sql, outside);
    app = await startAllInOne(env);

    prometheus = await PrometheusServer.start({
      targets: [{ job: 'vigil-all-in-one', url: app.urls.ops }],
      rulesFile: ALERT_RULES,
    });
    await waitForTargets(prometheus, 1);
    const apps = await prometheus.query('count by (app) (vigil_dependency_up)');
    expect(apps.map((s) => s.metric.app).sort()).toEqual(
      ['api', 'indexer', 'ingest', 'notifier', 'stream-processor', 'web'].sort(),
    );
    expect(await prometheus.query('vigil_process_cpu_seconds_total')).toEqual([
      expect.objectContaining({ metric: expect.objectContaining({ app: 'all-in-one' }) }),
    ]);

    await driveTraffic({ api: app.urls.api, ingest: app.urls.ingest, web: app.urls.web }, tokens);
    // A record the contract refuses, written straight to the in-process log: both consumers
    // dead-letter it (ingest would have refused it).
    const log = openInProcessLog(join(dataDir, 'log'), createLogger('observability-test', 'warn'));
    const topics = new TopicCatalog(env.VIGIL_TOPIC_PREFIX ?? '', 6);
    const refused: DetectionEventRecord = {
      id: `evt-bad-${run}`,
      detection_id: `det-bad-${run}`,
      detection_name: 'Impossible travel',
      issue_type: 'impossible_travel',
      employee_email: 'not an address',
      employee_name: 'Nobody',
      asset_name: 'okta',
      happened: Date.now(),
      risk_score: 5,
      source: 'okta',
      high_prevalence: false,
      allowlisted: false,
      description: null,
    };
    await log.createContractPublisher(topics).publishDetectionEvents([refused]);
    await log.close();

    expect(await checkDashboardAndAlerts(prometheus)).toEqual([
      'vigil_http_request_duration_seconds_count{status=~"5.."}',
    ]);
  });
});
