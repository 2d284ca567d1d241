import type { Page } from 'playwright-core';
import {
  PgSettingsChangeFeed,
  SqlNotificationSettingsStore,
  WebhookProviderService,
  type SettingsChange,
} from '@vigil/control-plane';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import { navigateBy, overflowsHorizontally, screenshot } from '../support/browser';
import { eventually } from '../support/http-client';
import { startWebHarness, type WebHarness, type WebUser } from '../support/web-harness';

jest.setTimeout(180_000);

const PATH = '/settings/notifications';
const HOUR = 3_600_000;

describe('web application: Settings → Notifications', () => {
  let harness: WebHarness;
  let base: string;
  let store: SqlNotificationSettingsStore;
  let providers: WebhookProviderService;
  let feed: PgSettingsChangeFeed;
  const announced: SettingsChange[] = [];
  let admin: WebUser;
  let member: WebUser;

  beforeAll(async () => {
    harness = await startWebHarness();
    ({ url: base, admin, member } = harness);
    store = new SqlNotificationSettingsStore(harness.sql);
    await store.saveGlobal({ ...DEFAULT_NOTIFICATION_SETTINGS, recipients: [] });
    providers = new WebhookProviderService(harness.sql, {
      policy: { allowPrivate: true, allowlist: [] },
    });
    // Given no provider is enrolled yet.
    for (const provider of await providers.list()) await providers.delete(provider.id);
    feed = new PgSettingsChangeFeed(process.env.DATABASE_URL!);
    await feed.start({ onChange: (change) => announced.push(change), onResync: () => undefined });
  });

  afterAll(async () => {
    await feed?.stop();
    await harness?.stop();
  });

  async function signedIn(who: WebUser, width = 1280): Promise<Page> {
    const page = await harness.signedIn(who, { width });
    await page.goto(`${base}${PATH}`);
    return page;
  }

  function save(page: Page) {
    return navigateBy(page, () => page.getByRole('button', { name: 'Save settings' }).click());
  }

  it('lets an admin save settings: bad addresses and a missing threshold are refused next to their fields', async () => {
    const page = await signedIn(admin);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Notifications',
    );
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Notifications' })
        .getAttribute('aria-current'),
    ).toBe('page');
    await expect(page.getByLabel('Max events per notification').inputValue()).resolves.toBe('5000');
    await expect(page.locator('#max-events-hint').innerText()).resolves.toContain(
      'Default 5,000; from 1 to 10,000.',
    );
    await screenshot(page, 'notifications-default');

    await page.getByLabel('Send email notifications').check();
    await page.getByLabel('Recipients').fill('ops@example.com\nnot-an-address');
    let response = await save(page);
    expect(response.status()).toBe(422);
    await expect(page.locator('#recipients-error').textContent()).resolves.toBe(
      '“not-an-address” is not a valid email address.',
    );
    expect(await page.getByLabel('Recipients').getAttribute('aria-invalid')).toBe('true');
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      'The settings were not saved',
    );
    await expect(page.getByLabel('Recipients').inputValue()).resolves.toBe(
      'ops@example.com\nnot-an-address',
    );
    await screenshot(page, 'notifications-error');

    await page.getByLabel('Recipients').fill('ops@example.com, SecOps@Example.com');
    await page.getByRole('radio', { name: 'Threshold' }).check();
    await page.getByLabel('Notify when the event count exceeds').fill('');
    response = await save(page);
    expect(response.status()).toBe(422);
    await expect(page.locator('#threshold-error').textContent()).resolves.toBe(
      'Enter the event count to exceed: Threshold mode needs it.',
    );
    expect((await store.getGlobal()).emailEnabled).toBe(false);

    await page.getByLabel('Notify when the event count exceeds').fill('50');
    await page.getByLabel('Batch window (minutes)').fill('15');
    await page.getByLabel('Max events per notification').fill('2,500');
    const announcedBefore = announced.length;
    response = await save(page);
    expect(response.status()).toBe(200);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'Notification settings saved.',
    );

    await page.reload();
    await expect(page.getByLabel('Send email notifications').isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('Recipients').inputValue()).resolves.toBe(
      'ops@example.com\nsecops@example.com',
    );
    await expect(page.getByRole('radio', { name: 'Threshold' }).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('Notify when the event count exceeds').inputValue()).resolves.toBe(
      '50',
    );
    await expect(page.getByLabel('Max events per notification').inputValue()).resolves.toBe('2500');
    expect(await store.getGlobal()).toEqual({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      emailEnabled: true,
      recipients: ['ops@example.com', 'secops@example.com'],
      frequency: 'threshold',
      threshold: 50,
      batchWindowMinutes: 15,
      maxEventsPerNotification: 2500,
    });
    await eventually(async () => {
      expect(announced.slice(announcedBefore)).toContainEqual({ scope: 'global' });
      return true;
    });
    await page.close();
  });

  it('snoozes for 1 hour showing the time left, and resumes early', async () => {
    const page = await signedIn(admin);
    const before = Date.now();
    await navigateBy(page, () => page.getByRole('button', { name: 'Snooze for 1 hour' }).click());
    const status = await page.locator('#silence-status').textContent();
    expect(status).toMatch(/^Snoozed — (59|60) min left, until \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC/);
    const silence = (await store.getGlobal()).silence;
    expect(silence.kind).toBe('snoozed');
    const until = silence.kind === 'snoozed' ? silence.until : 0;
    expect(until).toBeGreaterThanOrEqual(before + HOUR);
    expect(until).toBeLessThanOrEqual(Date.now() + HOUR);
    await screenshot(page, 'notifications-snoozed');

    await navigateBy(page, () =>
      page.getByRole('button', { name: 'Resume notifications' }).click(),
    );
    await expect(page.locator('#silence-status').textContent()).resolves.toContain(
      'Vigil sends notifications as configured below.',
    );
    expect(await page.getByRole('button', { name: 'Resume notifications' }).count()).toBe(0);
    expect((await store.getGlobal()).silence).toEqual({ kind: 'none' });

    await navigateBy(page, () =>
      page.getByRole('button', { name: 'Disable notifications' }).click(),
    );
    await expect(page.locator('#silence-status').textContent()).resolves.toContain(
      'Disabled until resumed',
    );
    expect((await store.getGlobal()).silence).toEqual({ kind: 'disabled' });
    await navigateBy(page, () =>
      page.getByRole('button', { name: 'Resume notifications' }).click(),
    );
    expect((await store.getGlobal()).silence).toEqual({ kind: 'none' });
    await page.close();
  });

  it('offers a provider only once it is enrolled, and links to Integrations until then', async () => {
    const page = await signedIn(admin);
    expect(await page.getByRole('checkbox', { name: 'Pager bridge' }).count()).toBe(0);
    const link = page.getByRole('link', { name: 'enroll one in Integrations' });
    expect(await link.getAttribute('href')).toBe('/settings/integrations');

    const { provider } = await providers.enroll({
      name: 'Pager bridge',
      kind: 'automation',
      url: 'http://127.0.0.1:9/hook',
    });
    await page.reload();
    expect(await link.count()).toBe(0);
    await page.getByLabel('Send webhook notifications').check();
    await page.getByRole('checkbox', { name: 'Pager bridge' }).check();
    await save(page);
    expect((await store.getGlobal()).webhookProviderIds).toEqual([provider.id]);
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Pager bridge' }).isChecked()).resolves.toBe(
      true,
    );
    await screenshot(page, 'notifications-with-provider');
    await page.close();
  });

  it('shows a member the settings read-only, and refuses a direct POST with a valid CSRF token', async () => {
    await store.saveGlobal({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      emailEnabled: true,
      recipients: ['soc@example.com'],
    });
    const page = await signedIn(member);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Notifications',
    );
    expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Snooze/ }).count()).toBe(0);
    expect(await page.getByRole('textbox').count()).toBe(0);
    await expect(page.getByRole('main').textContent()).resolves.toContain(
      'Only workspace admins can change notification settings.',
    );
    await expect(page.getByRole('main').textContent()).resolves.toContain('soc@example.com');
    await screenshot(page, 'notifications-member');

    const before = await store.getGlobal();
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    for (const [path, fields] of [
      [
        PATH,
        {
          recipients: 'intruder@example.com',
          email_enabled: 'on',
          frequency: 'batch',
          batch_window_minutes: '60',
          max_events: '5000',
        },
      ],
      [`${PATH}/silence`, { silence: 'disable' }],
    ] as const) {
      const status = await page.evaluate(
        `fetch('${path}', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(${JSON.stringify({ _csrf: csrf, ...fields })}),
        }).then((r) => r.status)`,
      );
      expect(status).toBe(403);
    }
    expect(await store.getGlobal()).toEqual(before);
    await page.close();
  });

  it.each([1280, 800])('lays out the page without sideways scrolling at %i px', async (width) => {
    const page = await signedIn(admin, width);
    expect(await overflowsHorizontally(page)).toBe(false);
    await screenshot(page, 'notifications-layout');
    await page.getByLabel('Recipients').fill('broken@');
    await page.getByLabel('Batch window (minutes)').fill('0');
    await save(page);
    expect(await overflowsHorizontally(page)).toBe(false);
    await screenshot(page, 'notifications-layout-error');
    await navigateBy(page, () => page.getByRole('button', { name: 'Snooze for 7 days' }).click());
    await expect(page.locator('#silence-status').textContent()).resolves.toMatch(
      /^Snoozed — 6 d 23 h left/,
    );
    expect(await overflowsHorizontally(page)).toBe(false);
    await screenshot(page, 'notifications-layout-snoozed');
    await navigateBy(page, () =>
      page.getByRole('button', { name: 'Resume notifications' }).click(),
    );
    const member_ = await signedIn(member, width);
    expect(await overflowsHorizontally(member_)).toBe(false);
    await screenshot(member_, 'notifications-layout-member');
    await member_.close();
    await page.close();
  });
});
