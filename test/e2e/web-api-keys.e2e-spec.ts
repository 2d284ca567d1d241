import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { SCOPES, createApiTokenService } from '@vigil/control-plane';
import { navigateBy, overflowsHorizontally, screenshot } from '../support/browser';
import { request } from '../support/http-client';
import { startWebHarness, type WebHarness } from '../support/web-harness';

jest.setTimeout(180_000);

const KEYS = '/settings/access/api-keys';

describe('web application: Settings → Access → API Keys', () => {
  let harness: WebHarness;
  let base: string;

  beforeAll(async () => {
    harness = await startWebHarness({ withApi: true });
    base = harness.url;
  });

  afterAll(async () => {
    await harness?.stop();
  });

  function adminPage(width = 1280): Promise<Page> {
    return harness.signedIn(harness.admin, { width });
  }

  function queryApi(token: string) {
    return request('POST', `${harness.apiUrl}/api-key/v1/events`, { token, json: { query: '' } });
  }

  function generateButton(page: Page) {
    return page.getByRole('button', { name: 'Generate Key' });
  }

  /** Creates a key through the form and returns the value the page shows. */
  async function createKeyInBrowser(page: Page, name: string): Promise<string> {
    await page.goto(`${base}${KEYS}/new`);
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Detection', { exact: true }).selectOption('read');
    const response = await navigateBy(page, () => generateButton(page).click());
    expect(response.status()).toBe(201);
    return page.getByLabel('Key value').inputValue();
  }

  it('lets an admin generate a key only once a scope is above None, and shows its value once', async () => {
    const page = await adminPage();
    await screenshot(page, 'api-keys-list');
    await navigateBy(page, () =>
      page.getByRole('link', { name: 'Create API key' }).first().click(),
    );
    expect(new URL(page.url()).pathname).toBe(`${KEYS}/new`);
    expect(await page.locator('select[data-scope]').count()).toBe(14);

    await expect(generateButton(page).isDisabled()).resolves.toBe(true);
    await page.getByLabel('Name').fill('SIEM export');
    await page.getByLabel('Detection', { exact: true }).selectOption('read');
    await expect(generateButton(page).isEnabled()).resolves.toBe(true);
    await page.getByLabel('Detection', { exact: true }).selectOption('none');
    await expect(generateButton(page).isDisabled()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Read and write', exact: true }).click();
    const levels = await page
      .locator('select[data-scope]')
      .evaluateAll((selects) => selects.map((s) => (s as unknown as { value: string }).value));
    expect(levels).toEqual(SCOPES.map(() => 'write'));
    await expect(generateButton(page).isEnabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'None', exact: true }).click();
    await expect(generateButton(page).isDisabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Read-only', exact: true }).click();
    await page.getByLabel('Expiration').selectOption('30');
    await screenshot(page, 'api-keys-create');

    const response = await navigateBy(page, () => generateButton(page).click());
    expect(response.status()).toBe(201);
    expect(response.headers()['cache-control']).toBe('no-store');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'API key created',
    );
    const value = await page.getByLabel('Key value').inputValue();
    expect(value).toMatch(/^vgk1-/);
    expect(page.url()).not.toContain(value);
    await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'api-keys-created');

    expect((await queryApi(value)).status).toBe(200);

    await navigateBy(page, () => page.reload().then(() => undefined));
    expect(new URL(page.url()).pathname).toBe(`${KEYS}/created`);
    expect(await page.content()).not.toContain(value);
    await expect(page.getByRole('heading', { level: 2 }).first().textContent()).resolves.toBe(
      'The key value is no longer shown',
    );

    await page.goto(`${base}${KEYS}`);
    expect(await page.content()).not.toContain(value);
    const row = page.getByRole('row').filter({ hasText: 'SIEM export' });
    await expect(row.getByRole('cell').nth(1).textContent()).resolves.toBe('Active');
    await expect(row.textContent()).resolves.toContain(`…${value.slice(-4)}`);
    await expect(row.textContent()).resolves.toContain('All scopes: Read-only');
    await page.close();
  });

  it('keeps the name immutable: a created key has no rename control', async () => {
    const page = await adminPage();
    await createKeyInBrowser(page, 'Immutable name');
    await page.goto(`${base}${KEYS}`);
    const row = page.getByRole('row').filter({ hasText: 'Immutable name' });
    expect(await row.locator('input, a:not([href$="/delete"])').count()).toBe(0);
    await page.close();
  });

  it('refuses, on the server, a key with no scope and no name, and says why next to each field', async () => {
    const page = await adminPage();
    const before = (await createApiTokenService(harness.sql).listTokens()).length;
    await page.goto(`${base}${KEYS}/new`);
    // A client that ignores the disabled button.
    await page.evaluate(
      "document.querySelector('[data-generate]').disabled = false; document.getElementById('name').value = '   ';",
    );
    const response = await navigateBy(page, () => generateButton(page).click());
    expect(response.status()).toBe(422);
    const summary = page.getByRole('alert');
    await expect(summary.textContent()).resolves.toContain('The key was not created');
    await expect(summary.textContent()).resolves.toContain('Name is required.');
    await expect(summary.textContent()).resolves.toContain('Choose at least one scope above None.');
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    await expect(page.locator('#name-error').textContent()).resolves.toBe('Name is required.');
    await expect(page.locator('#permissions-error').textContent()).resolves.toBe(
      'Choose at least one scope above None.',
    );
    await expect(generateButton(page).isDisabled()).resolves.toBe(true);
    await screenshot(page, 'api-keys-create-error');

    await page.getByLabel('Name').fill('x'.repeat(100));
    await page.evaluate("document.getElementById('name').removeAttribute('maxlength')");
    await page.getByLabel('Name').fill('x'.repeat(101));
    await page.getByLabel('Risk', { exact: true }).selectOption('read');
    await navigateBy(page, () => generateButton(page).click());
    await expect(page.locator('#name-error').textContent()).resolves.toBe(
      'Name must be at most 100 characters.',
    );
    expect(await page.getByLabel('Risk', { exact: true }).inputValue()).toBe('read');
    expect((await createApiTokenService(harness.sql).listTokens()).length).toBe(before);
    await page.close();
  });

  it('asks before Delete Token, and the API rejects the deleted key at once', async () => {
    const page = await adminPage();
    const value = await createKeyInBrowser(page, 'Doomed integration');
    expect((await queryApi(value)).status).toBe(200);

    await page.goto(`${base}${KEYS}`);
    const row = page.getByRole('row').filter({ hasText: 'Doomed integration' });
    await navigateBy(page, () =>
      row.getByRole('link', { name: 'Delete token Doomed integration' }).click(),
    );
    await expect(page.getByRole('heading', { level: 2 }).first().textContent()).resolves.toBe(
      'Delete “Doomed integration”?',
    );
    await screenshot(page, 'api-keys-delete-confirm');
    await navigateBy(page, () => page.getByRole('link', { name: 'Cancel' }).click());
    expect((await queryApi(value)).status).toBe(200);

    await navigateBy(page, () =>
      row.getByRole('link', { name: 'Delete token Doomed integration' }).click(),
    );
    await navigateBy(page, () => page.getByRole('button', { name: 'Delete Token' }).click());
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'API key deleted. Requests made with it are now rejected.',
    );
    expect(await page.getByRole('row').filter({ hasText: 'Doomed integration' }).count()).toBe(0);

    const rejected = await queryApi(value);
    expect(rejected.status).toBe(401);
    expect(rejected.body.error.code).toBe('invalid_token');
    await page.close();
  });

  it('shows a member no API Keys, and refuses the page and a direct POST with a valid CSRF token', async () => {
    const page = await harness.signedIn(harness.member);
    expect(new URL(page.url()).pathname).toBe('/settings/access/account');
    expect(await page.getByRole('link', { name: 'API Keys' }).count()).toBe(0);
    await screenshot(page, 'member-account');

    const refused = await navigateBy(page, () => page.goto(`${base}${KEYS}`).then(() => undefined));
    expect(refused.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Workspace admins only',
    );
    await screenshot(page, 'member-refused');

    const before = (await createApiTokenService(harness.sql).listTokens()).length;
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const status = await page.evaluate(
      `fetch('${KEYS}', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: '${csrf}', name: 'Sneaky', 'scope.admin': 'write', expires_in_days: '90' }),
      }).then((r) => r.status)`,
    );
    expect(status).toBe(403);
    expect((await createApiTokenService(harness.sql).listTokens()).length).toBe(before);
    const tokenId = (await createApiTokenService(harness.sql).listTokens())[0]?.id ?? randomUUID();
    const deleteStatus = await page.evaluate(
      `fetch('${KEYS}/${tokenId}/delete', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: '${csrf}' }),
      }).then((r) => r.status)`,
    );
    expect(deleteStatus).toBe(403);
    await page.close();
  });

  it('refuses a state-changing request without the CSRF token, or from another origin', async () => {
    const page = await adminPage();
    const before = (await createApiTokenService(harness.sql).listTokens()).length;
    const noToken = await page.evaluate(
      `fetch('${KEYS}', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ name: 'No token', 'scope.admin': 'write', expires_in_days: '90' }),
      }).then(async (r) => [r.status, await r.text()])`,
    );
    expect(noToken).toEqual([403, expect.stringContaining('This form could not be accepted')]);

    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const crossSite = await fetch(`${base}${KEYS}`, {
      method: 'POST',
      headers: {
        cookie,
        origin: 'https://attacker.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        _csrf: csrf,
        name: 'Cross site',
        'scope.admin': 'write',
        expires_in_days: '90',
      }).toString(),
    });
    expect(crossSite.status).toBe(403);
    expect((await createApiTokenService(harness.sql).listTokens()).length).toBe(before);
    await page.close();
  });

  it.each([1280, 800])(
    'lays out every API Keys page without sideways scrolling at %i px',
    async (width) => {
      const page = await adminPage(width);
      await createKeyInBrowser(
        page,
        `Layout check at ${width} px with a fairly long descriptive name`,
      );
      await screenshot(page, 'layout-created');
      expect(await overflowsHorizontally(page)).toBe(false);
      for (const path of [KEYS, `${KEYS}/new`, '/settings/access/account']) {
        await page.goto(`${base}${path}`);
        expect(await overflowsHorizontally(page)).toBe(false);
        await screenshot(page, `layout${path.replaceAll('/', '-')}`);
      }
      await page.goto(`${base}${KEYS}/new`);
      await page.evaluate("document.querySelector('[data-generate]').disabled = false");
      await navigateBy(page, () => generateButton(page).click());
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'layout-create-error');
      await page.goto(`${base}${KEYS}`);
      await navigateBy(page, () =>
        page
          .getByRole('link', { name: /^Delete token/ })
          .first()
          .click(),
      );
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'layout-delete-confirm');
      await page.close();
    },
  );
});
