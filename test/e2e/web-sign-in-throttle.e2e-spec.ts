import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { RunningApp } from '@vigil/config';
import { SqlAuditLog, type AuditEvent } from '@vigil/control-plane';
import { startWeb } from '../../apps/web/src/start-web';
import { navigateBy, signIn } from '../support/browser';
import { PASSWORD, startWebHarness, type WebHarness } from '../support/web-harness';

jest.setTimeout(180_000);

const ATTACKER = '203.0.113.66';
const ADMIN_HOME = '198.51.100.7';

/** A sign-in form posted over HTTP as a client at `address` (sent as X-Forwarded-For). */
async function postSignIn(
  baseUrl: string,
  email: string,
  password: string,
  address?: string,
): Promise<Response> {
  const forwarded: Record<string, string> = address ? { 'x-forwarded-for': address } : {};
  const form = await fetch(`${baseUrl}/sign-in`, { headers: forwarded });
  const cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1];
  return fetch(`${baseUrl}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      ...forwarded,
      cookie,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
  });
}

function retryAfterOf(response: Response): number {
  return Number(response.headers.get('retry-after'));
}

/** A browser page whose requests come from `address`, as a proxy in front would say. */
async function pageFrom(harness: WebHarness, address: string): Promise<Page> {
  const context = await harness.browser.newContext({
    viewport: { width: 1280, height: 900 },
    extraHTTPHeaders: { 'x-forwarded-for': address },
  });
  return context.newPage();
}

describe('sign-in throttling behind a proxy (TRUST_PROXY=1)', () => {
  let harness: WebHarness;

  beforeAll(async () => {
    harness = await startWebHarness({ env: { TRUST_PROXY: '1' } });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it('lets the admin in at once from another address after 200 failures from one address for random accounts', async () => {
    const statuses: number[] = [];
    // The address's waits double but end: at least 200 tries, then on until the current wait
    // has more than 2 s left, so the admin's try below lands inside it and not just after.
    let attempt: Response | null = null;
    while (
      statuses.length < 200 ||
      (statuses.length < 1000 && !(attempt?.status === 429 && retryAfterOf(attempt) > 2))
    ) {
      attempt = await postSignIn(
        harness.url,
        `nobody-${randomUUID()}@example.com`,
        'guessed password',
        ATTACKER,
      );
      statuses.push(attempt.status);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(100);
    const last = await postSignIn(harness.url, harness.admin.email, PASSWORD, ATTACKER);
    expect(last.status).toBe(429);
    expect(retryAfterOf(last)).toBeGreaterThan(0);

    const page = await pageFrom(harness, ADMIN_HOME);
    const response = await signIn(page, harness.url, harness.admin.email, PASSWORD);
    expect(response.status()).toBe(200);
    expect(new URL(page.url()).pathname).not.toBe('/sign-in');
    await page.context().close();

    const audit = new SqlAuditLog(harness.sql);
    const events: AuditEvent[] = [];
    for (let cursor: string | null | undefined; cursor !== null;) {
      const page = await audit.list({ action: 'user.sign_in', limit: 500, cursor });
      events.push(...page.events);
      cursor = page.nextCursor;
    }
    const fromAttacker = events.filter((e) => e.address === ATTACKER);
    expect(fromAttacker.filter((e) => e.details.reason === 'bad_credentials').length).toBe(
      statuses.filter((s) => s === 401).length,
    );
    expect(fromAttacker.some((e) => e.details.reason === 'throttled')).toBe(true);
    expect(
      events.find((e) => e.action === 'user.sign_in.succeeded' && e.address === ADMIN_HOME),
    ).toMatchObject({
      actor: { label: harness.admin.email },
      details: { method: 'password' },
    });
  });

  it('keeps an attacker hammering one account from one address waiting longer and longer, while its owner signs in from another', async () => {
    const target = harness.member.email;
    const attacker = '203.0.113.99';
    for (let i = 0; i < 5; i++) {
      expect((await postSignIn(harness.url, target, `guess ${i}`, attacker)).status).toBe(401);
    }
    const first = await postSignIn(harness.url, target, 'guess 5', attacker);
    expect(first.status).toBe(429);
    const firstWait = retryAfterOf(first);
    expect(firstWait).toBeGreaterThan(0);
    expect(firstWait).toBeLessThanOrEqual(15);
    expect(await first.text()).toMatch(
      /Too many failed sign-in attempts\. Try again in \d+ seconds\./,
    );
    // Even the right password waits at the attacker's address…
    expect((await postSignIn(harness.url, target, PASSWORD, attacker)).status).toBe(429);

    // …but not from the owner's own.
    const page = await pageFrom(harness, '198.51.100.20');
    const owner = await signIn(page, harness.url, target, PASSWORD);
    expect(owner.status()).toBe(200);
    expect(new URL(page.url()).pathname).not.toBe('/sign-in');
    await navigateBy(page, () => page.getByRole('button', { name: 'Sign out' }).click());
    await page.context().close();

    await new Promise((resolve) => setTimeout(resolve, firstWait * 1000 + 500));
    expect((await postSignIn(harness.url, target, 'guess 6', attacker)).status).toBe(401);
    const second = await postSignIn(harness.url, target, 'guess 7', attacker);
    expect(second.status).toBe(429);
    expect(retryAfterOf(second)).toBeGreaterThan(firstWait);
  });
});

describe('sign-in throttling without a trusted proxy (TRUST_PROXY unset)', () => {
  let web: RunningApp;

  beforeAll(async () => {
    web = await startWeb({ ...process.env, WEB_PORT: '0', LOG_LEVEL: 'fatal', TRUST_PROXY: '' });
  });

  afterAll(async () => {
    await web?.stop();
  });

  it('ignores X-Forwarded-For, so a client cannot escape the throttle by claiming other addresses', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) {
      const response = await postSignIn(
        web.url!,
        `nobody-${randomUUID()}@example.com`,
        'guessed password',
        `192.0.2.${i + 1}`,
      );
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toContain(429);
  });
});
