import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { RunningApp } from '@vigil/config';
import {
  WebhookProviderService,
  createPgSqlClient,
  createUserService,
  type SqlClient,
} from '@vigil/control-plane';
import { anEventRecord } from '@vigil/contracts';
import { startWeb } from '../../apps/web/src/start-web';
import { indexReadModels } from '../support/index-read-models';
import { PASSWORD } from '../support/web-harness';
import {
  SESSION_COOKIE,
  cookiesSetBy,
  postForm,
  signInOverHttp,
  type WebSession,
} from './support/web-session';
import { STATE_CHANGING, webRoutes, type WebRoute } from './support/web-routes';

jest.setTimeout(120_000);

const DETECTION = 'det-web-security';

/** A body every form of the application would accept, so only the check under test refuses. */
const PLAUSIBLE_FORM: Record<string, string> = {
  name: 'Changed by an attacker',
  kind: 'custom',
  url: 'http://vm/attacker',
  'scope.admin': 'write',
  expires_in_days: '90',
  email_enabled: 'on',
  recipients: 'attacker@example.com',
  mode: 'Immediate',
  batch_window_minutes: '5',
  max_events: '10',
  webhook_enabled: 'on',
  custom: 'on',
  action: 'disable',
  duration: '1h',
};

describe('web application: CSRF, sessions and roles on every route', () => {
  let web: RunningApp;
  let sql: SqlClient;
  let admin: WebSession;
  let member: WebSession;
  let adminEmail: string;
  let ids: { token: string; provider: string; delivery: string };

  beforeAll(async () => {
    web = await startWeb({ ...process.env, WEB_PORT: '0', LOG_LEVEL: 'fatal' });
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    const users = createUserService(sql);
    adminEmail = `admin-${randomUUID()}@example.com`;
    const memberEmail = `member-${randomUUID()}@example.com`;
    await users.createUser({ email: adminEmail, name: 'Ada', role: 'admin', password: PASSWORD });
    await users.createUser({ email: memberEmail, name: 'Max', role: 'member', password: PASSWORD });
    admin = await signInOverHttp(web.url!, adminEmail, PASSWORD);
    member = await signInOverHttp(web.url!, memberEmail, PASSWORD);
    await indexReadModels({ events: [anEventRecord({ detection_id: DETECTION })] });

    // Real objects behind every path parameter, so a request that got through would change them.
    const created = await postForm(`${web.url}/settings/access/api-keys`, admin.cookie, {
      ...PLAUSIBLE_FORM,
      name: 'Target key',
      _csrf: admin.csrf,
    });
    expect(created.status).toBeLessThan(400);
    const providers = new WebhookProviderService(sql, {
      policy: { allowPrivate: true, allowlist: [] },
    });
    const provider = (
      await providers.enroll({ name: 'Target', kind: 'custom', url: 'http://vm/hook' })
    ).provider;
    const test = await postForm(
      `${web.url}/settings/integrations/${provider.id}/test`,
      admin.cookie,
      { _csrf: admin.csrf },
    );
    expect(test.status).toBe(303);
    const token = await sql.query<{ id: string }>('SELECT id FROM api_tokens LIMIT 1');
    const delivery = await sql.query<{ id: string }>('SELECT id FROM deliveries LIMIT 1');
    ids = { token: token.rows[0].id, provider: provider.id, delivery: delivery.rows[0].id };
  });

  afterAll(async () => {
    await web?.stop();
    await sql?.close();
  });

  /** The route's path with real ids in its parameters. */
  function concrete(route: WebRoute): string {
    return route.path
      .replace(/\/settings\/access\/api-keys\/:id/, `/settings/access/api-keys/${ids.token}`)
      .replace(/\/settings\/integrations\/:id/, `/settings/integrations/${ids.provider}`)
      .replace(/\/u\/detections\/:id/, `/u/detections/${DETECTION}`)
      .replace(/\/u\/investigations\/:id/, '/u/investigations/inv-none')
      .replace(':deliveryId', ids.delivery)
      .replace(/:[A-Za-z]+/g, randomUUID());
  }

  /** A fingerprint of every control-plane table but the sessions (checked on their own). */
  async function stateFingerprint(): Promise<Record<string, string>> {
    const { rows: tables } = await sql.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
          AND table_name <> 'sessions' ORDER BY table_name`,
    );
    const fingerprint: Record<string, string> = {};
    for (const { table_name: table } of tables) {
      const { rows } = await sql.query<{ row: unknown }>(
        `SELECT to_jsonb(t) AS row FROM "${table}" t`,
      );
      const lines = rows.map((r) => JSON.stringify(r.row)).sort();
      fingerprint[table] = createHash('sha256').update(lines.join('\n')).digest('hex');
    }
    return fingerprint;
  }

  async function stillSignedIn(session: WebSession): Promise<boolean> {
    const page = await fetch(`${web.url}/settings/access/account`, {
      redirect: 'manual',
      headers: { cookie: session.cookie },
    });
    return page.status === 200;
  }

  const routes = webRoutes();
  const changing = routes.filter((r) => STATE_CHANGING.has(r.method));

  it('finds the routes from the controllers: every known state-changing route is among them', () => {
    const listed = changing.map((r) => `${r.method} ${r.path}`);
    expect(listed).toEqual(
      expect.arrayContaining([
        'POST /sign-in',
        'POST /sign-out',
        'POST /settings/access/api-keys',
        'POST /settings/access/api-keys/:id/delete',
        'POST /settings/integrations',
        'POST /settings/integrations/:id/delete',
        'POST /settings/notifications',
        'POST /u/detections/:id/notifications',
      ]),
    );
    expect(routes.filter((r) => r.adminOnly).length).toBeGreaterThan(10);
  });

  it('refuses every state-changing request without its CSRF token, with a wrong one, another session’s, or from a foreign origin, and changes nothing', async () => {
    const before = await stateFingerprint();
    const problems: string[] = [];
    const attempts: [string, (route: WebRoute) => Promise<Response>][] = [
      ['no token', (r) => postForm(web.url + concrete(r), admin.cookie, PLAUSIBLE_FORM)],
      [
        'wrong token',
        (r) =>
          postForm(web.url + concrete(r), admin.cookie, {
            ...PLAUSIBLE_FORM,
            _csrf: randomBytes(32).toString('base64url'),
          }),
      ],
      [
        'empty token',
        (r) => postForm(web.url + concrete(r), admin.cookie, { ...PLAUSIBLE_FORM, _csrf: '' }),
      ],
      [
        'another session’s token',
        (r) =>
          postForm(web.url + concrete(r), admin.cookie, { ...PLAUSIBLE_FORM, _csrf: member.csrf }),
      ],
      [
        'wrong token in the header',
        (r) =>
          postForm(web.url + concrete(r), admin.cookie, PLAUSIBLE_FORM, {
            'x-csrf-token': member.csrf,
          }),
      ],
      [
        'two tokens, the first wrong',
        (r) =>
          fetch(web.url + concrete(r), {
            method: 'POST',
            redirect: 'manual',
            headers: {
              cookie: admin.cookie,
              'content-type': 'application/x-www-form-urlencoded',
            },
            body: `_csrf=${member.csrf}&_csrf=${admin.csrf}&name=x`,
          }),
      ],
      ...['https://attacker.example', 'null', `${web.url}.attacker.example`].map(
        (origin): [string, (route: WebRoute) => Promise<Response>] => [
          `foreign origin ${origin}`,
          (r) =>
            postForm(
              web.url + concrete(r),
              admin.cookie,
              { ...PLAUSIBLE_FORM, _csrf: admin.csrf },
              { origin },
            ),
        ],
      ),
    ];
    const methods = ['POST', 'PUT', 'PATCH', 'DELETE'];
    for (const route of changing) {
      for (const [label, attempt] of attempts) {
        const response = await attempt(route);
        if (response.status !== 403)
          problems.push(`${route.method} ${route.path} (${label}) → ${response.status}`);
      }
      // The other methods on the same path, with no token: refused too (or no such route).
      for (const method of methods.filter((m) => m !== route.method)) {
        const response = await postForm(
          web.url + concrete(route),
          admin.cookie,
          PLAUSIBLE_FORM,
          {},
          method,
        );
        if (![403, 404].includes(response.status))
          problems.push(`${method} ${route.path} (no token) → ${response.status}`);
      }
    }
    expect(problems).toEqual([]);
    expect(await stateFingerprint()).toEqual(before);
    expect(await stillSignedIn(admin)).toBe(true);
    expect(await stillSignedIn(member)).toBe(true);
  });

  it('refuses a member on every admin route, with a valid CSRF token, and changes nothing', async () => {
    const before = await stateFingerprint();
    const problems: string[] = [];
    for (const route of routes.filter((r) => r.adminOnly)) {
      const url = web.url + concrete(route);
      const response = STATE_CHANGING.has(route.method)
        ? await postForm(url, member.cookie, { ...PLAUSIBLE_FORM, _csrf: member.csrf })
        : await fetch(url, { redirect: 'manual', headers: { cookie: member.cookie } });
      if (response.status !== 403)
        problems.push(`${route.method} ${route.path} → ${response.status}`);
    }
    expect(problems).toEqual([]);
    expect(await stateFingerprint()).toEqual(before);
  });

  it('never keeps a session id planted before sign-in, and ends the session server-side on sign-out', async () => {
    // An attacker's own valid session, and a made-up id, planted in the victim's browser.
    const attacker = await signInOverHttp(web.url!, adminEmail, PASSWORD);
    const plantings: [string, string | undefined][] = [
      [attacker.sessionId, attacker.csrf],
      [randomBytes(32).toString('base64url'), undefined],
    ];
    for (const [planted, plantedCsrf] of plantings) {
      const victim = await signInOverHttp(
        web.url!,
        adminEmail,
        PASSWORD,
        new Map([[SESSION_COOKIE, planted]]),
        plantedCsrf,
      );
      expect(victim.sessionId).not.toBe(planted);
      const { rows } = await sql.query('SELECT 1 FROM sessions WHERE id = $1', [
        createHash('sha256').update(planted).digest(),
      ]);
      expect(rows).toHaveLength(0);
      expect(victim.csrf).not.toBe(attacker.csrf);

      const signedOut = await postForm(`${web.url}/sign-out`, victim.cookie, {
        _csrf: victim.csrf,
      });
      expect(signedOut.status).toBe(303);
      expect(cookiesSetBy(signedOut).get(SESSION_COOKIE)).toBe('');
      // The old cookie, replayed by whoever copied it, is worthless: the row is gone.
      expect(await stillSignedIn(victim)).toBe(false);
      const { rows: after } = await sql.query('SELECT 1 FROM sessions WHERE id = $1', [
        createHash('sha256').update(victim.sessionId).digest(),
      ]);
      expect(after).toHaveLength(0);
    }
    // The planted session of the attacker was ended by the victim's sign-in.
    expect(await stillSignedIn(attacker)).toBe(false);
  });
});
