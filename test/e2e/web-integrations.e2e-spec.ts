import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import type { RunningApp } from '@vigil/config';
import { WebhookProviderService } from '@vigil/control-plane';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { startWeb } from '../../apps/web/src/start-web';
import { navigateBy, overflowsHorizontally, screenshot } from '../support/browser';
import { eventually } from '../support/http-client';
import { startWebHarness, type WebHarness, type WebUser } from '../support/web-harness';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(180_000);

const PATH = '/settings/integrations';

describe('web application: Settings → Integrations', () => {
  /** Its web application allows private targets, as in development and tests. */
  let harness: WebHarness;
  /** The production default: public targets only. */
  let strictWeb: RunningApp;
  let notifier: RunningApp | undefined;
  let receiver: WebhookReceiver;
  let providers: WebhookProviderService;
  let admin: WebUser;
  let member: WebUser;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    receiver.on('/failing', (_request, response) => {
      response.writeHead(500).end('receiver is down');
    });
    harness = await startWebHarness({ env: { NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' } });
    ({ admin, member } = harness);
    strictWeb = await startWeb({
      ...process.env,
      WEB_PORT: '0',
      NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'false',
    });
    providers = new WebhookProviderService(harness.sql);
  });

  afterAll(async () => {
    await notifier?.stop();
    await harness?.stop();
    await strictWeb?.stop();
    await receiver?.stop();
  });

  /** The notifier sends what the web application queues; started when a test needs it. */
  async function runNotifier(): Promise<void> {
    notifier ??= await startNotifier({
      ...process.env,
      NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
      NOTIFIER_RETRY_SCHEDULE: '100ms',
    });
  }

  function signedIn(who: WebUser, width = 1280): Promise<Page> {
    return harness.signedIn(who, { width });
  }

  /** Enrolls through the form and returns the secret the page shows. */
  async function enrollInBrowser(page: Page, name: string, path = '/hook'): Promise<string> {
    await page.goto(`${harness.url}${PATH}/new`);
    await page.getByLabel('Name').fill(name);
    await page.getByRole('radio', { name: 'Custom webhook' }).check();
    await page.getByLabel('URL').fill(receiver.url(path));
    const response = await navigateBy(page, () =>
      page.getByRole('button', { name: 'Enroll provider' }).click(),
    );
    expect(response.status()).toBe(201);
    return page.getByLabel('Signing secret').inputValue();
  }

  async function openProvider(page: Page, name: string): Promise<void> {
    await page.goto(`${harness.url}${PATH}`);
    await navigateBy(page, () => page.getByRole('link', { name, exact: true }).click());
  }

  function deliveryRows(page: Page) {
    return page.locator('tr[data-delivery-id]');
  }

  it('refuses a loopback URL when private targets are not allowed, and says why next to the field', async () => {
    const page = await harness.signedIn(admin, { url: strictWeb.url });
    await page.goto(`${strictWeb.url}${PATH}/new`);
    await page.getByLabel('URL').fill('ftp://example.com');
    let response = await navigateBy(page, () =>
      page.getByRole('button', { name: 'Enroll provider' }).click(),
    );
    expect(response.status()).toBe(422);
    await expect(page.locator('#name-error').textContent()).resolves.toBe('Enter a name.');
    await expect(page.locator('#url-error').textContent()).resolves.toBe(
      'Enter a full URL starting with https:// (or http://).',
    );

    await page.getByLabel('Name').fill('Local listener');
    await page.getByLabel('URL').fill(receiver.url('/hook'));
    response = await navigateBy(page, () =>
      page.getByRole('button', { name: 'Enroll provider' }).click(),
    );
    expect(response.status()).toBe(422);
    const message = await page.locator('#url-error').textContent();
    expect(message).toContain('Vigil will not send to this URL');
    expect(message).toContain('a loopback address');
    expect(await page.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    await expect(page.getByLabel('Name').inputValue()).resolves.toBe('Local listener');
    await screenshot(page, 'integrations-enroll-refused');
    expect((await providers.list()).some((p) => p.name === 'Local listener')).toBe(false);
    await page.close();
  });

  it('says in words next to the URL field that a host name could not be found', async () => {
    const page = await signedIn(admin);
    await page.goto(`${harness.url}${PATH}/new`);
    await page.getByLabel('Name').fill('Typo in the host');
    await page.getByRole('radio', { name: 'Custom webhook' }).check();
    await page.getByLabel('URL').fill('https://vigil-enrollment-check.invalid/hook');
    const response = await navigateBy(page, () =>
      page.getByRole('button', { name: 'Enroll provider' }).click(),
    );
    expect(response.status()).toBe(422);
    await expect(page.locator('#url-error').textContent()).resolves.toBe(
      'The host name vigil-enrollment-check.invalid could not be found (DNS). Check the URL.',
    );
    expect(await page.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    expect((await providers.list()).some((p) => p.name === 'Typo in the host')).toBe(false);
    await screenshot(page, 'integrations-enroll-unresolved');
    await page.close();
  });

  it('enrolls a provider, shows its signing secret exactly once, and offers it in Notifications', async () => {
    const page = await signedIn(admin);
    await page.goto(`${harness.url}/settings/notifications`);
    expect(await page.getByRole('checkbox', { name: 'SOAR intake' }).count()).toBe(0);

    await page.goto(`${harness.url}${PATH}`);
    await navigateBy(page, () =>
      page.getByRole('link', { name: 'Enroll provider' }).first().click(),
    );
    await page.getByLabel('Name').fill('SOAR intake');
    await page.getByRole('radio', { name: 'Automation platform' }).check();
    await page.getByLabel('URL').fill(receiver.url('/soar'));
    await screenshot(page, 'integrations-enroll');
    const response = await navigateBy(page, () =>
      page.getByRole('button', { name: 'Enroll provider' }).click(),
    );
    expect(response.status()).toBe(201);
    expect(response.headers()['cache-control']).toBe('no-store');
    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(page.url()).not.toContain(secret);
    await screenshot(page, 'integrations-secret');

    await navigateBy(page, () => page.reload().then(() => undefined));
    expect(new URL(page.url()).pathname).toBe(`${PATH}/secret-shown`);
    expect(await page.content()).not.toContain(secret);
    await expect(page.getByRole('heading', { level: 2 }).first().textContent()).resolves.toBe(
      'The signing secret is no longer shown',
    );

    await page.goto(`${harness.url}${PATH}`);
    expect(await page.content()).not.toContain(secret);
    const row = page.getByRole('row').filter({ hasText: 'SOAR intake' });
    await expect(row.textContent()).resolves.toContain('Automation platform');
    await expect(row.textContent()).resolves.toContain(receiver.url('/soar'));
    await screenshot(page, 'integrations-list');

    await page.goto(`${harness.url}/settings/notifications`);
    expect(await page.getByRole('checkbox', { name: 'SOAR intake' }).count()).toBe(1);
    expect(await page.content()).not.toContain(secret);
    await page.close();
  });

  it('queues a test event: Pending while no notifier runs, then Delivered with its attempt', async () => {
    const page = await signedIn(admin);
    const secret = await enrollInBrowser(page, 'Test target');
    await navigateBy(page, () => page.getByRole('link', { name: 'Done' }).click());
    await navigateBy(page, () => page.getByRole('button', { name: 'Send a test event' }).click());
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'Test event queued.',
    );
    expect(await deliveryRows(page).count()).toBe(1);
    const row = deliveryRows(page).first();
    const deliveryId = (await row.getAttribute('data-delivery-id'))!;
    await expect(row.textContent()).resolves.toContain('Test event');
    await expect(row.getByRole('cell').first().textContent()).resolves.toContain('Pending');
    await expect(row.textContent()).resolves.toContain('No attempt yet');
    await screenshot(page, 'integrations-test-pending');

    await runNotifier();
    await eventually(async () => {
      await page.reload();
      const text = await deliveryRows(page).first().textContent();
      return text?.includes('Delivered') ? text : undefined;
    });
    await expect(deliveryRows(page).first().innerText()).resolves.toMatch(
      /#1 · .+ · HTTP 200 · \d+ ms/,
    );
    await screenshot(page, 'integrations-test-delivered');

    const [received] = receiver.at('/hook').filter((r) => r.headers['webhook-id'] === deliveryId);
    const payload = new Webhook(secret).verify(
      received.body,
      received.headers as Record<string, string>,
    ) as { notification: { title: string }; delivery: { recipient_name: string } };
    expect(payload.notification.title).toBe('Vigil test event: 1 new events');
    expect(payload.delivery.recipient_name).toBe('Test target');
    await page.close();
  });

  it('shows a dead delivery with every attempt, and resends it', async () => {
    await runNotifier();
    const page = await signedIn(admin);
    await enrollInBrowser(page, 'Flaky endpoint', '/failing');
    await navigateBy(page, () => page.getByRole('link', { name: 'Done' }).click());
    await navigateBy(page, () => page.getByRole('button', { name: 'Send a test event' }).click());
    await eventually(async () => {
      await page.reload();
      const text = await deliveryRows(page).first().textContent();
      return text?.includes('Dead') ? text : undefined;
    });
    const row = deliveryRows(page).first();
    expect(await row.locator('.attempts li').count()).toBe(2);
    await expect(row.textContent()).resolves.toContain('HTTP 500: receiver is down');
    await screenshot(page, 'integrations-dead');

    const before = receiver.at('/failing').length;
    await navigateBy(page, () => row.getByRole('button', { name: /^Resend delivery/ }).click());
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'Delivery queued again',
    );
    await eventually(async () => {
      await page.reload();
      const attempts = await deliveryRows(page).first().locator('.attempts li').count();
      return attempts === 4 ? attempts : undefined;
    });
    expect(receiver.at('/failing').length).toBe(before + 2);
    await page.close();
  });

  it('rotates the secret only after confirmation, and shows the new one once', async () => {
    const page = await signedIn(admin);
    const first = await enrollInBrowser(page, 'Rotating receiver');
    await openProvider(page, 'Rotating receiver');
    await navigateBy(page, () => page.getByRole('link', { name: 'Rotate secret' }).click());
    await expect(page.getByRole('heading', { level: 2 }).first().textContent()).resolves.toBe(
      'Rotate the secret of “Rotating receiver”?',
    );
    await screenshot(page, 'integrations-rotate-confirm');
    await navigateBy(page, () => page.getByRole('link', { name: 'Cancel' }).click());

    await navigateBy(page, () => page.getByRole('link', { name: 'Rotate secret' }).click());
    const response = await navigateBy(page, () =>
      page.getByRole('button', { name: 'Rotate secret' }).click(),
    );
    expect(response.status()).toBe(200);
    const second = await page.getByLabel('Signing secret').inputValue();
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    await navigateBy(page, () => page.reload().then(() => undefined));
    expect(await page.content()).not.toContain(second);
    await openProvider(page, 'Rotating receiver');
    expect(await page.content()).not.toContain(second);
    await expect(page.locator('dl.details').textContent()).resolves.not.toContain('Never');
    await page.close();
  });

  it('asks before deleting a provider, which then leaves Integrations and Notifications', async () => {
    const page = await signedIn(admin);
    await enrollInBrowser(page, 'Doomed receiver');
    await openProvider(page, 'Doomed receiver');
    await navigateBy(page, () =>
      page.getByRole('link', { name: 'Delete provider Doomed receiver' }).click(),
    );
    await expect(page.getByRole('heading', { level: 2 }).first().textContent()).resolves.toBe(
      'Delete “Doomed receiver”?',
    );
    await screenshot(page, 'integrations-delete-confirm');
    await navigateBy(page, () => page.getByRole('link', { name: 'Cancel' }).click());
    expect((await providers.list()).some((p) => p.name === 'Doomed receiver')).toBe(true);

    await navigateBy(page, () =>
      page.getByRole('link', { name: 'Delete provider Doomed receiver' }).click(),
    );
    await navigateBy(page, () => page.getByRole('button', { name: 'Delete provider' }).click());
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'Webhook provider deleted.',
    );
    expect(await page.getByRole('row').filter({ hasText: 'Doomed receiver' }).count()).toBe(0);
    await page.goto(`${harness.url}/settings/notifications`);
    expect(await page.getByRole('checkbox', { name: 'Doomed receiver' }).count()).toBe(0);
    await page.close();
  });

  it('shows a member providers and deliveries read-only, and refuses every change with a valid CSRF token', async () => {
    const { provider } = await new WebhookProviderService(harness.sql, {
      policy: { allowPrivate: true, allowlist: [] },
    }).enroll({ name: 'Member-visible', kind: 'custom', url: receiver.url('/member') });
    const page = await signedIn(member);
    await page.goto(`${harness.url}${PATH}`);
    expect(await page.getByRole('link', { name: 'Enroll provider' }).count()).toBe(0);
    await navigateBy(page, () =>
      page.getByRole('link', { name: 'Member-visible', exact: true }).click(),
    );
    expect(await page.getByRole('button').filter({ hasNotText: 'Sign out' }).count()).toBe(0);
    await screenshot(page, 'integrations-member');

    const refused = await navigateBy(page, () =>
      page.goto(`${harness.url}${PATH}/new`).then(() => undefined),
    );
    expect(refused.status()).toBe(403);
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    for (const [path, fields] of [
      [PATH, { name: 'Sneaky', kind: 'custom', url: receiver.url('/sneaky') }],
      [`${PATH}/${provider.id}/test`, {}],
      [`${PATH}/${provider.id}/rotate`, {}],
      [`${PATH}/${provider.id}/delete`, {}],
      [`${PATH}/${provider.id}/deliveries/${randomUUID()}/resend`, {}],
    ] as const) {
      const status = await page.evaluate(
        `fetch('${path}', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(${JSON.stringify({ _csrf: csrf, ...fields })}),
        }).then((r) => r.status)`,
      );
      expect([path, status]).toEqual([path, 403]);
    }
    expect((await providers.list()).map((p) => p.name)).toContain('Member-visible');
    expect((await providers.list()).map((p) => p.name)).not.toContain('Sneaky');
    await page.close();
  });

  it('seals the signing secret at rest, and will not start on a shared database without the key', async () => {
    const page = await signedIn(admin);
    const secret = await enrollInBrowser(page, 'Sealed receiver');
    const { rows } = await harness.sql.query<{ secret: string }>(
      "SELECT secret FROM webhook_providers WHERE name = 'Sealed receiver'",
    );
    expect(rows[0].secret).toMatch(/^v1:/);
    expect(rows[0].secret).not.toContain(secret.slice('whsec_'.length));
    await page.close();
    await expect(
      startWeb({
        ...process.env,
        WEB_PORT: '0',
        VIGIL_SECRETS_KEY: '',
        VIGIL_SECRETS_KEY_FILE: '',
      }),
    ).rejects.toThrow(/No secrets key: .*DATABASE_URL is set/);
  });

  it('shows until when the previous secret still signs after a rotation, and can stop it at once', async () => {
    const page = await signedIn(admin);
    await enrollInBrowser(page, 'Overlapping receiver');
    await openProvider(page, 'Overlapping receiver');
    await navigateBy(page, () => page.getByRole('link', { name: 'Rotate secret' }).click());
    await expect(page.locator('.alert-warning').first().textContent()).resolves.toContain(
      'The previous secret keeps signing beside it for 24 hours',
    );
    const before = Date.now();
    await navigateBy(page, () =>
      page.getByRole('button', { name: 'Rotate secret', exact: true }).click(),
    );
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'and with the previous secret too until',
    );
    await openProvider(page, 'Overlapping receiver');
    const overlap = page
      .getByRole('status')
      .filter({ hasText: 'The previous secret still signs until' });
    const until = new Date((await overlap.locator('time').getAttribute('datetime'))!);
    expect(until.getTime()).toBeGreaterThanOrEqual(before + 24 * 3_600_000 - 1000);
    expect(until.getTime()).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
    await screenshot(page, 'integrations-overlap');

    // A leaked secret: rotate again and stop the old one at once.
    await navigateBy(page, () => page.getByRole('link', { name: 'Rotate secret' }).click());
    await navigateBy(page, () =>
      page.getByRole('button', { name: 'Rotate now and stop the old secret at once' }).click(),
    );
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'the previous secret no longer signs',
    );
    await openProvider(page, 'Overlapping receiver');
    expect(await overlap.count()).toBe(0);
    const { rows } = await harness.sql.query<{ previous_secret: string | null }>(
      "SELECT previous_secret FROM webhook_providers WHERE name = 'Overlapping receiver'",
    );
    expect(rows[0].previous_secret).toBeNull();
    await page.close();
  });

  it.each([1280, 800])(
    'lays out every Integrations page without sideways scrolling at %i px',
    async (width) => {
      const page = await signedIn(admin, width);
      const name = `Layout check at ${width} px with a fairly long provider name`;
      await enrollInBrowser(page, name, '/failing');
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'integrations-layout-secret');
      await navigateBy(page, () => page.getByRole('link', { name: 'Done' }).click());
      await navigateBy(page, () => page.getByRole('button', { name: 'Send a test event' }).click());
      for (const path of [PATH, `${PATH}/new`]) {
        await page.goto(`${harness.url}${path}`);
        expect(await overflowsHorizontally(page)).toBe(false);
        await screenshot(page, `integrations-layout${path.replaceAll('/', '-')}`);
      }
      await navigateBy(page, () => page.getByRole('button', { name: 'Enroll provider' }).click());
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'integrations-layout-error');
      await openProvider(page, name);
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'integrations-layout-provider');
      await navigateBy(page, () => page.getByRole('link', { name: /^Delete provider/ }).click());
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'integrations-layout-delete');
      await page.close();
    },
  );
});
