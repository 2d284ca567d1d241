import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createPgSqlClient, createUserService } from '@vigil/control-plane';
import { startWeb } from '../../apps/web/src/start-web';
import { navigateBy, screenshot, signIn } from '../support/browser';
import { adminDatabaseUrl, databaseUrlFor } from '../support/test-environment';
import { rawExchange } from '../support/raw-exchange';
import { PASSWORD, startWebHarness, type WebHarness } from '../support/web-harness';

jest.setTimeout(120_000);

describe('web application: signing in and out', () => {
  let harness: WebHarness;
  let base: string;
  let adminEmail: string;

  beforeAll(async () => {
    harness = await startWebHarness();
    base = harness.url;
    adminEmail = harness.admin.email;
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it('refuses a wrong password or an unknown email with the same message, keeping the email', async () => {
    const { context, page } = await harness.openPage();
    await page.goto(`${base}/sign-in`);
    await screenshot(page, 'sign-in');
    await page.getByLabel('Email').fill(adminEmail);
    await page.getByLabel('Password').fill('not the password');
    const response = await navigateBy(page, () =>
      page.getByRole('button', { name: 'Sign in' }).click(),
    );
    expect(response.status()).toBe(401);
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      'The email or password is incorrect.',
    );
    expect(await page.getByLabel('Email').inputValue()).toBe(adminEmail);
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'sign-in-error');

    await signIn(page, base, `nobody-${randomUUID()}@example.com`, PASSWORD);
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      'The email or password is incorrect.',
    );
    await context.close();
  });

  it('signs in an admin to API Keys and signs out, after which the old cookie is worthless', async () => {
    const { context, page } = await harness.openPage();
    await signIn(page, base, adminEmail.toUpperCase(), PASSWORD);
    expect(new URL(page.url()).pathname).toBe('/settings/access/api-keys');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Access');
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'vigil_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(await page.evaluate('document.cookie')).not.toContain('vigil_session');

    await navigateBy(page, () => page.getByRole('button', { name: 'Sign out' }).click());
    expect(page.url()).toBe(`${base}/sign-in?signed_out=1`);
    await expect(page.getByRole('status').textContent()).resolves.toContain('You are signed out.');

    const replay = await fetch(`${base}/settings/access/api-keys`, {
      headers: { cookie: `vigil_session=${session.value}` },
      redirect: 'manual',
    });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe('/sign-in?next=%2Fsettings%2Faccess%2Fapi-keys');
    await context.close();
  });

  it('sends a visitor to sign in and back to the page asked for', async () => {
    const { context, page } = await harness.openPage();
    await page.goto(`${base}/settings/access/account`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await page.getByLabel('Email').fill(adminEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await navigateBy(page, () => page.getByRole('button', { name: 'Sign in' }).click());
    expect(page.url()).toBe(`${base}/settings/access/account`);
    await expect(page.locator('dl').textContent()).resolves.toContain(adminEmail);
    await context.close();
  });

  it('throttles repeated failures for one account with a clear message', async () => {
    const { context, page } = await harness.openPage();
    const email = `target-${randomUUID()}@example.com`;
    for (let attempt = 0; attempt < 5; attempt++) {
      await signIn(page, base, email, `wrong password ${attempt}`);
    }
    await signIn(page, base, email, PASSWORD);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /Too many failed sign-in attempts\. Try again in \d+ (seconds|minutes)\./,
    );
    await context.close();
  });

  it('refuses a sign-in form posted without its CSRF token', async () => {
    const response = await fetch(`${base}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: adminEmail, password: PASSWORD }).toString(),
      redirect: 'manual',
    });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('This form could not be accepted');
    expect(response.headers.get('set-cookie') ?? '').not.toContain('vigil_session');
  });

  it('serves pages with a strict content security policy and no caching', async () => {
    const response = await fetch(`${base}/sign-in`);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).not.toMatch(/<script>|<script(?![^>]*src=)[^>]*>/);
  });

  it('answers a request target no URL parser reads with its 400 page, headers and all', async () => {
    const answer = await rawExchange(
      base,
      'GET http://[::1:80/settings HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    const { statusLine, head, body } = answer;
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(head).toMatch(/^x-request-id: \S+/im);
    expect(head).toMatch(/^content-security-policy: .*frame-ancestors 'none'/im);
    expect(head).toMatch(/^cache-control: no-store/im);
    expect(head).toMatch(/^content-type: text\/html/im);
    expect(body).toContain('The request could not be understood');
    expect((await fetch(`${base}/sign-in`)).status).toBe(200);
  });
});

describe('web application: the first workspace admin', () => {
  const database = `vigil_web_first_${randomBytes(4).toString('hex')}`;
  let admin: Client;

  beforeAll(async () => {
    admin = new Client({ connectionString: adminDatabaseUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
  });

  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  it('is created from the environment on first start, and only then', async () => {
    const env = {
      ...process.env,
      DATABASE_URL: databaseUrlFor(database),
      WEB_PORT: '0',
      VIGIL_ADMIN_EMAIL: 'First.Admin@Example.com',
      VIGIL_ADMIN_PASSWORD: 'first admin password',
    };
    const first = await startWeb(env);
    await first.stop();
    const second = await startWeb({ ...env, VIGIL_ADMIN_EMAIL: 'other@example.com' });
    await second.stop();

    const sql = createPgSqlClient(databaseUrlFor(database), 1);
    try {
      const users = await sql.query<{ email: string; role: string }>(
        'SELECT email, role FROM users',
      );
      expect(users.rows).toEqual([{ email: 'first.admin@example.com', role: 'admin' }]);
      const signedIn = await createUserService(sql).verifyCredentials(
        'first.admin@example.com',
        'first admin password',
      );
      expect(signedIn?.role).toBe('admin');
    } finally {
      await sql.close();
    }
  });

  it('refuses to start with a too short admin password, without echoing it', async () => {
    const failure: Error = await startWeb({
      ...process.env,
      DATABASE_URL: databaseUrlFor(database),
      WEB_PORT: '0',
      VIGIL_ADMIN_EMAIL: 'x@example.com',
      VIGIL_ADMIN_PASSWORD: 'hunter2',
    }).then(
      () => new Error('expected the start to fail'),
      (error: Error) => error,
    );
    expect(failure.message).toContain('VIGIL_ADMIN_PASSWORD must be at least 12 characters');
    expect(failure.message).not.toContain('hunter2');
  });
});
