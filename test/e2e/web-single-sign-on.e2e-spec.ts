import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { SqlAuditLog, createUserService, operatorActor } from '@vigil/control-plane';
import { navigateBy, overflowsHorizontally, screenshot } from '../support/browser';
import { freePort } from '../support/free-port';
import { startTestOidcProvider, type TestOidcProvider } from '../support/oidc-test-provider';
import { startWebHarness, type WebHarness } from '../support/web-harness';

jest.setTimeout(180_000);

const DISPLAY_NAME = 'Example ID';

describe('single sign-on with OpenID Connect, against a real OpenID Provider', () => {
  let idp: TestOidcProvider;
  let harness: WebHarness;
  let base: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    idp = await startTestOidcProvider(`${base}/sign-in/oidc/callback`);
    harness = await startWebHarness({
      env: {
        WEB_PORT: String(port),
        APP_URL: base,
        OIDC_ISSUER_URL: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
        OIDC_DISPLAY_NAME: DISPLAY_NAME,
        OIDC_JIT_ROLE: 'member',
        OIDC_ALLOWED_DOMAINS: 'allowed.example',
      },
    });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await harness?.stop();
    await idp?.stop();
  });

  /** A fresh browser profile on Vigil's sign-in page; nothing leaves this machine. */
  async function signInPage(width = 1280): Promise<Page> {
    const { context, page } = await harness.openPage(width);
    contexts.push(context);
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
    await page.goto(`${base}/sign-in`);
    return page;
  }

  /** Vigil's button, the provider's login and consent pages; returns Vigil's answer. */
  async function signOnAs(page: Page, accountId: string): Promise<Response> {
    await navigateBy(page, () =>
      page.getByRole('button', { name: `Sign in with ${DISPLAY_NAME}` }).click(),
    );
    expect(page.url().startsWith(idp.issuer)).toBe(true);
    await page.locator('input[name="login"]').fill(accountId);
    await page.locator('input[name="password"]').fill('anything');
    await navigateBy(page, () => page.getByRole('button', { name: 'Sign-in' }).click());
    return navigateBy(page, () => page.getByRole('button', { name: 'Continue' }).click());
  }

  /** Signs on as `accountId` and returns the callback URL the provider sent the browser to. */
  async function signOnCapturingCallback(page: Page, accountId: string): Promise<string> {
    let callback = '';
    page.on('request', (request) => {
      if (request.url().startsWith(`${base}/sign-in/oidc/callback`)) callback = request.url();
    });
    expect((await signOnAs(page, accountId)).status()).toBe(200);
    expect(callback).not.toBe('');
    return callback;
  }

  async function lastSignInEvents() {
    return (await new SqlAuditLog(harness.sql).list({ action: 'user.sign_in', limit: 1 })).events;
  }

  async function expectRefused(page: Page, response: Response, status: number, text: RegExp) {
    expect(response.status()).toBe(status);
    expect(new URL(page.url()).pathname).toBe('/sign-in/oidc/callback');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Sign-in refused',
    );
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(text);
    await expect(page.getByRole('link', { name: 'Back to sign in' }).count()).resolves.toBe(1);
  }

  it('offers single sign-on beside the password form, at 1280 and 800 px', async () => {
    for (const width of [1280, 800]) {
      const page = await signInPage(width);
      await expect(
        page.getByRole('button', { name: `Sign in with ${DISPLAY_NAME}` }).isVisible(),
      ).resolves.toBe(true);
      await expect(page.getByLabel('Password').isVisible()).resolves.toBe(true);
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'sign-in-sso');
    }
  });

  it('signs in an existing user matched by verified email, linked from then on', async () => {
    idp.addAccount({
      id: 'ada-sub',
      email: harness.admin.email.toUpperCase(),
      emailVerified: true,
    });
    const page = await signInPage();
    const response = await signOnAs(page, 'ada-sub');
    expect(response.status()).toBe(200);
    expect(new URL(page.url()).pathname).not.toMatch(/^\/sign-in/);
    await expect(page.getByRole('button', { name: 'Sign out' }).count()).resolves.toBe(1);
    const { rows } = await harness.sql.query<{ oidc_subject: string }>(
      'SELECT oidc_subject FROM users WHERE email = $1',
      [harness.admin.email],
    );
    expect(rows).toEqual([{ oidc_subject: 'ada-sub' }]);
    expect((await lastSignInEvents())[0]).toMatchObject({
      action: 'user.sign_in.succeeded',
      actor: { label: harness.admin.email },
      details: { method: 'oidc' },
    });
  });

  it('creates a user of an allowed domain at their first sign-on, with the configured role', async () => {
    const email = `new-${randomUUID()}@allowed.example`;
    idp.addAccount({ id: 'newcomer', email, emailVerified: true, name: 'Nia Newcomer' });
    const page = await signInPage();
    expect((await signOnAs(page, 'newcomer')).status()).toBe(200);
    await expect(page.getByRole('button', { name: 'Sign out' }).count()).resolves.toBe(1);
    const { rows } = await harness.sql.query<{ role: string; name: string }>(
      'SELECT role, name FROM users WHERE email = $1',
      [email],
    );
    expect(rows).toEqual([{ role: 'member', name: 'Nia Newcomer' }]);
  });

  it('refuses to create a user of another domain, saying why', async () => {
    const email = `someone-${randomUUID()}@other.example`;
    idp.addAccount({ id: 'outsider', email, emailVerified: true });
    const page = await signInPage();
    const response = await signOnAs(page, 'outsider');
    await expectRefused(page, response, 403, new RegExp(`No Vigil account for ${email}`));
    await expect(page.getByRole('alert').textContent()).resolves.toContain('allowed.example');
    await screenshot(page, 'sso-refused-domain');
    const { rows } = await harness.sql.query('SELECT 1 FROM users WHERE email = $1', [email]);
    expect(rows).toEqual([]);
    expect((await lastSignInEvents())[0]).toMatchObject({
      action: 'user.sign_in.failed',
      actor: { id: null, label: email },
      details: { method: 'oidc', reason: 'oidc_domain_not_allowed' },
    });
  });

  it('refuses an email the provider has not verified, even of an existing user', async () => {
    idp.addAccount({ id: 'unverified', email: harness.member.email, emailVerified: false });
    const page = await signInPage();
    const response = await signOnAs(page, 'unverified');
    await expectRefused(page, response, 403, /has not verified the email address/);
    await screenshot(page, 'sso-refused-unverified');
    const { rows } = await harness.sql.query<{ oidc_subject: string | null }>(
      'SELECT oidc_subject FROM users WHERE email = $1',
      [harness.member.email],
    );
    expect(rows).toEqual([{ oidc_subject: null }]);
    expect((await lastSignInEvents())[0]).toMatchObject({
      details: { reason: 'oidc_email_unverified' },
    });
  });

  it('refuses a disabled user', async () => {
    const users = createUserService(harness.sql);
    const email = `gone-${randomUUID()}@example.com`;
    const user = await users.createUser({
      email,
      name: 'Gone',
      role: 'member',
      password: 'a long enough password',
    });
    await users.disable(user.id, { actor: operatorActor('test') });
    idp.addAccount({ id: 'disabled', email, emailVerified: true });
    const page = await signInPage();
    const response = await signOnAs(page, 'disabled');
    await expectRefused(
      page,
      response,
      403,
      new RegExp(`The Vigil account for ${email} is disabled`),
    );
    await screenshot(page, 'sso-refused-disabled');
    const { rows } = await harness.sql.query('SELECT 1 FROM sessions WHERE user_id = $1', [
      user.id,
    ]);
    expect(rows).toEqual([]);
  });

  it('refuses a callback with a wrong state and changes nothing: the real sign-in still completes', async () => {
    idp.addAccount({ id: 'ada-sub', email: harness.admin.email, emailVerified: true });
    const page = await signInPage();
    await navigateBy(page, () =>
      page.getByRole('button', { name: `Sign in with ${DISPLAY_NAME}` }).click(),
    );
    const atProvider = page.url();
    const state = new URL(atProvider).searchParams.get('state')!;
    const forged = await page.goto(
      `${base}/sign-in/oidc/callback?code=forged-code&state=${encodeURIComponent(`${state}x`)}`,
    );
    await expectRefused(page, forged!, 400, /does not belong to a sign-in started in this browser/);
    await screenshot(page, 'sso-refused-foreign-state');
    expect((await lastSignInEvents())[0]).toMatchObject({
      actor: { id: null },
      details: { method: 'oidc', reason: 'oidc_foreign_state' },
    });

    await page.goto(atProvider);
    await page.locator('input[name="login"]').fill('ada-sub');
    await page.locator('input[name="password"]').fill('anything');
    await navigateBy(page, () => page.getByRole('button', { name: 'Sign-in' }).click());
    const real = await navigateBy(page, () =>
      page.getByRole('button', { name: 'Continue' }).click(),
    );
    expect(real.status()).toBe(200);
    await expect(page.getByRole('button', { name: 'Sign out' }).count()).resolves.toBe(1);
  });

  it('refuses a replayed callback (its code already used), in the same browser or another', async () => {
    idp.addAccount({ id: 'ada-sub', email: harness.admin.email, emailVerified: true });
    const page = await signInPage();
    const callback = await signOnCapturingCallback(page, 'ada-sub');
    const sessionsBefore = await harness.sql.query('SELECT id FROM sessions');

    const replayed = await page.goto(callback);
    await expectRefused(page, replayed!, 400, /already used/);
    await screenshot(page, 'sso-refused-replayed');
    expect((await lastSignInEvents())[0]).toMatchObject({
      details: { reason: 'oidc_state_unknown' },
    });

    const other = await signInPage();
    const elsewhere = await other.goto(callback);
    await expectRefused(
      other,
      elsewhere!,
      400,
      /does not belong to a sign-in started in this browser/,
    );
    expect((await harness.sql.query('SELECT id FROM sessions')).rows).toEqual(sessionsBefore.rows);
  });

  it('shows the provider’s refusal when the person cancels at the provider', async () => {
    const page = await signInPage();
    await navigateBy(page, () =>
      page.getByRole('button', { name: `Sign in with ${DISPLAY_NAME}` }).click(),
    );
    const response = await navigateBy(page, () =>
      page.getByRole('link', { name: '[ Cancel ]' }).click(),
    );
    await expectRefused(page, response, 400, /refused the sign-in \(access_denied\)/);
    await screenshot(page, 'sso-refused-cancelled');
  });
});
