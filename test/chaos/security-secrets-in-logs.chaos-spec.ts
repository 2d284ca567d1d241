import { randomUUID } from 'node:crypto';
import type { DestinationStream } from 'pino';
import { createLogger, routeLogsTo, type RunningApp } from '@vigil/config';
import { createPgSqlClient, createUserService, type SqlClient } from '@vigil/control-plane';
import { TopicCatalog, createKafkaClient } from '@vigil/kafka';
import type { Kafka } from 'kafkajs';
import { startApi } from '../../apps/api/src/start-api';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { startWeb } from '../../apps/web/src/start-web';
import { anEventInput } from '../support/factories';
import { eventually } from '../support/http-client';
import { CommandProducer, anEmailDecision, commandOf } from '../support/notification-commands';
import { startTestOidcProvider, type TestOidcProvider } from '../support/oidc-test-provider';
import { SmtpSink } from '../support/smtp-sink';
import { WebhookReceiver } from '../support/webhook-receiver';
import { PASSWORD } from '../support/web-harness';
import { cookiesSetBy, postForm, signInOverHttp } from './support/web-session';

jest.setTimeout(120_000);

/** Resolves to loopback through /etc/hosts; allowlisted so the notifier may deliver to it. */
const RECEIVER_HOST = 'vm';
const HOSTILE = `<script>alert(1)</script> "><img src=x onerror=alert(2)> <a href="javascript:alert(3)">x</a>`;

describe('secrets never reach a log line', () => {
  const lines: string[] = [];
  const capture: DestinationStream = { write: (line: string) => void lines.push(line) };
  const secrets = new Map<string, string>();
  let apps: RunningApp[] = [];
  let smtp: SmtpSink;
  let receiver: WebhookReceiver;
  let idp: TestOidcProvider;
  let sql: SqlClient;
  let kafka: Kafka;
  let commands: CommandProducer;
  const recipient = `soc-${randomUUID()}@example.com`;

  beforeAll(async () => {
    routeLogsTo(capture);
    smtp = await SmtpSink.start();
    receiver = await WebhookReceiver.start();
    // Single sign-on against a real provider, so its client secret goes over the wire.
    idp = await startTestOidcProvider('http://127.0.0.1:3002/sign-in/oidc/callback');
    const env = {
      ...process.env,
      LOG_LEVEL: 'trace',
      WEB_PORT: '0',
      API_PORT: '0',
      INGEST_PORT: '0',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      NOTIFIER_RETRY_SCHEDULE: '200ms',
      NOTIFIER_WEBHOOK_TARGET_ALLOWLIST: RECEIVER_HOST,
      OIDC_ISSUER_URL: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
    };
    const web = await startWeb(env);
    apps = [web, await startApi(env), await startIngest(env), await startNotifier(env)];
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    kafka = createKafkaClient(
      { brokers: process.env.KAFKA_BROKERS!.split(','), clientId: 'secrets-in-logs' },
      createLogger('secrets-in-logs', 'warn'),
    );
    commands = new CommandProducer(
      kafka,
      new TopicCatalog(process.env.VIGIL_TOPIC_PREFIX!, 3).notificationCommands,
    );
    await commands.connect();
  });

  afterAll(async () => {
    await commands?.disconnect();
    for (const app of apps) await app.stop();
    routeLogsTo(undefined);
    await sql?.close();
    await smtp?.stop();
    await receiver?.stop();
    await idp?.stop();
  });

  it('logs no token, password, session id, CSRF token, signing secret or Authorization header during a full run', async () => {
    const [web, api, ingest] = apps;
    const email = `admin-${randomUUID()}@example.com`;
    await createUserService(sql).createUser({
      email,
      name: 'Ada',
      role: 'admin',
      password: PASSWORD,
    });
    secrets.set('password', PASSWORD);

    // A failed sign-in (a mistyped password is often a real one) and a successful one.
    const wrongPassword = `${PASSWORD} but mistyped`;
    secrets.set('mistyped password', wrongPassword);
    const form = await fetch(`${web.url}/sign-in`);
    const preCookies = cookiesSetBy(form);
    const preCsrf = [...preCookies.values()][0];
    secrets.set('pre-session CSRF token', preCsrf);
    const failed = await postForm(
      `${web.url}/sign-in`,
      [...preCookies].map(([n, v]) => `${n}=${v}`).join('; '),
      { _csrf: preCsrf, email, password: wrongPassword },
    );
    expect(failed.status).toBe(401);
    const admin = await signInOverHttp(web.url!, email, PASSWORD);
    secrets.set('session id', admin.sessionId);
    secrets.set('session CSRF token', admin.csrf);

    // A single sign-on with a forged code: the code exchange authenticates with the secret.
    secrets.set('OIDC client secret', idp.clientSecret);
    const started = await postForm(
      `${web.url}/sign-in/oidc`,
      [...preCookies].map(([n, v]) => `${n}=${v}`).join('; '),
      { _csrf: preCsrf },
    );
    expect(started.status).toBe(303);
    const state = cookiesSetBy(started).get('vigil_sso')!;
    const callback = await fetch(
      `${web.url}/sign-in/oidc/callback?code=forged&state=${encodeURIComponent(state)}`,
      { headers: { cookie: `vigil_sso=${state}` } },
    );
    expect(callback.status).toBe(400);

    // An API token created in the web application, used on the API and on ingest.
    const created = await postForm(`${web.url}/settings/access/api-keys`, admin.cookie, {
      _csrf: admin.csrf,
      name: 'Logged?',
      'scope.detection': 'write',
      expires_in_days: '30',
    });
    expect(created.status).toBe(201);
    const token = /vgk1-[0-9A-Za-z]{49}/.exec(await created.text())![0];
    secrets.set('API token', token);
    secrets.set('API token body', token.slice(5, 40));
    secrets.set('Authorization header', `Bearer ${token}`);
    const authorization = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    for (const body of [JSON.stringify({ query: "id = 'evt-none'" }), '{"query": "id = ']) {
      await fetch(`${api.url}/api-key/v1/events`, { method: 'POST', headers: authorization, body });
    }
    await fetch(`${api.url}/api-key/v1/events`, {
      method: 'POST',
      headers: { ...authorization, authorization: `Bearer ${token.slice(0, -1)}x` },
      body: '{}',
    });
    const ingested = await fetch(`${ingest.url}/ingest/v1/detection-events`, {
      method: 'POST',
      headers: authorization,
      body: JSON.stringify([anEventInput()]),
    });
    expect(ingested.status).toBe(202);
    await fetch(`${ingest.url}/ingest/v1/detection-events`, {
      method: 'POST',
      headers: authorization,
      body: '[{"broken": ',
    });

    // A webhook provider enrolled in the web application, and a test event delivered to it.
    const enrolled = await postForm(`${web.url}/settings/integrations`, admin.cookie, {
      _csrf: admin.csrf,
      name: 'SOAR',
      kind: 'custom',
      url: `http://${RECEIVER_HOST}:${new URL(receiver.url('/')).port}/hook`,
    });
    expect(enrolled.status).toBe(201);
    const page = await enrolled.text();
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(page)![0];
    secrets.set('webhook signing secret', secret);
    secrets.set('webhook signing key', secret.slice('whsec_'.length));
    const providerId = /\/settings\/integrations\/([0-9a-f-]{36})/.exec(page)![1];
    const test = await postForm(
      `${web.url}/settings/integrations/${providerId}/test`,
      admin.cookie,
      { _csrf: admin.csrf },
    );
    expect(test.status).toBe(303);
    const [delivered] = await eventually(async () => {
      const got = receiver.at('/hook');
      return got.length > 0 ? got : undefined;
    });
    secrets.set('webhook signature', String(delivered.headers['webhook-signature']).split(',')[1]);

    // An email, with markup in every field a detection's data can fill.
    const decision = anEmailDecision({
      recipients: [recipient],
      detectionName: `Detection ${HOSTILE}`,
      affectedUsers: [{ email: 'eve@example.com', name: `Eve ${HOSTILE}` }],
      events: [
        {
          id: 'evt-hostile',
          personName: `Eve ${HOSTILE}`,
          personEmail: 'eve@example.com',
          description: `Asset ${HOSTILE}`,
          timestamp: Date.UTC(2025, 4, 1),
        },
      ],
    });
    await commands.send(commandOf(decision));
    const [mail] = await eventually(async () => {
      const got = smtp.to(recipient);
      return got.length > 0 ? got : undefined;
    });

    // Sign out, so the end of a session is logged too.
    await postForm(`${web.url}/sign-out`, admin.cookie, { _csrf: admin.csrf });

    const leaks: string[] = [];
    for (const line of lines) {
      for (const [what, value] of secrets) {
        if (line.includes(value)) leaks.push(`${what} in: ${line.slice(0, 300)}`);
      }
    }
    process.stdout.write(
      `secrets in logs: ${lines.length} lines checked for ${secrets.size} secrets\n`,
    );
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.join('\n')).toContain('API token created');
    expect(leaks).toEqual([]);

    // Each request above has its log line, which names the token by id and the user by id only.
    const requestLines = lines
      .map((line) => JSON.parse(line) as Record<string, any>)
      .filter((line) => line.msg === 'request completed' || line.msg === 'request errored');
    expect(new Set(requestLines.map((line) => String(line.name)))).toEqual(
      new Set(['api', 'ingest', 'web']),
    );
    for (const line of requestLines) {
      expect(Object.keys(line.req).sort()).toEqual(['id', 'method', 'path']);
      expect(Object.keys(line.res)).toEqual(['statusCode']);
    }
    expect(requestLines.some((line) => line.name === 'ingest' && line.tokenId)).toBe(true);
    expect(requestLines.some((line) => line.name === 'web' && line.userId)).toBe(true);
    // A failed sign-in is logged (by its event) without the email address it was for.
    const signInFailure = lines.find((line) => line.includes('"event":"sign_in.failed"'));
    expect(signInFailure).toBeDefined();
    expect(signInFailure).not.toContain(email);

    // The email's HTML part shows the markup as text: nothing of it is live.
    expect(mail.html).toBeDefined();
    const html = mail.html!;
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).not.toMatch(/<[^>]*\sonerror=/i);
    expect(html).toContain('&lt;script&gt;');
  });
});
