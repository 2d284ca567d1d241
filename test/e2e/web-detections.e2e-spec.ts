import type { Page } from 'playwright-core';
import { SqlNotificationSettingsStore, WebhookProviderService } from '@vigil/control-plane';
import { anEventRecord, type DetectionEventRecord } from '@vigil/contracts';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import { navigateBy, overflowsHorizontally, screenshot } from '../support/browser';
import { detectionStateOf, indexReadModels } from '../support/index-read-models';
import { PASSWORD, startWebHarness, type WebHarness, type WebUser } from '../support/web-harness';

jest.setTimeout(180_000);

const T0 = Date.UTC(2025, 4, 1, 8, 0, 0, 0);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

// "det-busy" has 30 events from 12 people; 27 quiet detections have one event each, older.
const BUSY = 'det-busy';
const QUIET = Array.from({ length: 27 }, (_, i) => `det-quiet-${String(i).padStart(2, '0')}`);
const busyEvents: DetectionEventRecord[] = Array.from({ length: 30 }, (_, i) =>
  anEventRecord({
    id: `evt-busy-${String(i).padStart(2, '0')}`,
    detection_id: BUSY,
    detection_name: 'Mass download',
    employee_email: `person${i % 12}@example.com`,
    employee_name: `Person ${i % 12}`,
    happened: T0 + DAY + i * MINUTE,
    risk_score: i % 10,
    description: `downloaded file batch ${i}`,
  }),
);
const quietEvents = QUIET.map((id, i) =>
  anEventRecord({
    detection_id: id,
    detection_name: `Quiet detection ${i}`,
    happened: T0 + i * MINUTE,
  }),
);

describe('web application: Detections', () => {
  let harness: WebHarness;
  let base: string;
  let store: SqlNotificationSettingsStore;
  let providerId: string;
  let admin: WebUser;
  let member: WebUser;

  beforeAll(async () => {
    harness = await startWebHarness();
    ({ url: base, admin, member } = harness);
    store = new SqlNotificationSettingsStore(harness.sql);
    const providers = new WebhookProviderService(harness.sql, {
      policy: { allowPrivate: true, allowlist: [] },
    });
    providerId = (
      await providers.enroll({
        name: 'SOAR playbook',
        kind: 'automation',
        url: 'http://127.0.0.1:9/hook',
      })
    ).provider.id;
    // As the processor would have recorded them: det-busy notified at 25 of its 30 events on
    // both channels, QUIET[7] notified of its one event, QUIET[8] not recorded yet.
    const notifiedSettings = {
      ...DEFAULT_NOTIFICATION_SETTINGS,
      emailEnabled: true,
      recipients: ['soc@example.com'],
      frequency: 'immediate' as const,
      webhookEnabled: true,
      webhookProviderIds: [providerId],
    };
    const recordedAt = Date.now() - MINUTE;
    await indexReadModels({
      events: [...busyEvents, ...quietEvents],
      detectionStates: [
        {
          snapshot: detectionStateOf(busyEvents, {
            settings: notifiedSettings,
            at: T0 + DAY + 26 * MINUTE,
            count: 25,
          }),
          recordedAt,
        },
        {
          snapshot: detectionStateOf([quietEvents[7]], {
            settings: notifiedSettings,
            at: T0 + 8 * MINUTE,
            count: 1,
          }),
          recordedAt,
        },
      ],
    });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  function signedIn(who: WebUser, width = 1280): Promise<Page> {
    return harness.signedIn(who, { width });
  }

  const rows = (page: Page, section: string) => page.locator(`#${section} tbody tr`);
  const firstCells = (page: Page, section: string) =>
    rows(page, section).evaluateAll((trs) =>
      trs.map((tr) => (tr as unknown as { dataset: Record<string, string> }).dataset),
    );

  const detectionIds = async (page: Page) =>
    (
      await page
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => (tr as unknown as { dataset: Record<string, string> }).dataset),
        )
    ).map((d) => d.detectionId);

  it('sends a visitor who is not signed in to sign in, then back to the detection', async () => {
    const { page } = await harness.openPage();
    await page.goto(`${base}/u/detections/${BUSY}`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await navigateBy(page, () => page.getByRole('button', { name: 'Sign in' }).click());
    expect(new URL(page.url()).pathname).toBe(`/u/detections/${BUSY}`);
    await page.close();
  });

  it('lists detections most recently active first with exact event counts, a page at a time', async () => {
    const page = await signedIn(admin);
    await navigateBy(page, () => page.getByRole('link', { name: 'Detections' }).click());
    expect(new URL(page.url()).pathname).toBe('/u/detections');
    await screenshot(page, 'detections-list');
    expect(await detectionIds(page)).toEqual([BUSY, ...[...QUIET].reverse().slice(0, 24)]);
    const busy = page.getByRole('row').filter({ hasText: 'Mass download' });
    await expect(busy.getByRole('cell').nth(1).textContent()).resolves.toBe('30');
    await expect(busy.getByRole('cell').nth(2).textContent()).resolves.toBe('9');

    await navigateBy(page, () => page.getByRole('link', { name: 'Next page' }).click());
    expect(await detectionIds(page)).toEqual([QUIET[2], QUIET[1], QUIET[0]]);
    expect(await page.getByRole('link', { name: 'Next page' }).count()).toBe(0);
    await navigateBy(page, () => page.getByRole('link', { name: 'First page' }).click());
    await navigateBy(page, () => page.getByRole('link', { name: 'Mass download' }).click());
    expect(new URL(page.url()).pathname).toBe(`/u/detections/${BUSY}`);
    await page.close();
  });

  it('shows a detection’s exact counts, its affected users and its events newest first, paged', async () => {
    const page = await signedIn(admin);
    await page.goto(`${base}/u/detections/${BUSY}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Mass download',
    );
    const stats = page.getByRole('definition');
    await expect(stats.nth(0).textContent()).resolves.toBe('30');
    await expect(stats.nth(1).textContent()).resolves.toBe('12');
    await screenshot(page, 'detection-detail');

    const newest = busyEvents
      .slice(5)
      .reverse()
      .map((e) => e.id);
    expect((await firstCells(page, 'events')).map((d) => d.eventId)).toEqual(newest);
    await expect(rows(page, 'events').first().textContent()).resolves.toContain(
      'downloaded file batch 29',
    );
    await navigateBy(page, () => page.getByRole('link', { name: 'Older events' }).click());
    expect((await firstCells(page, 'events')).map((d) => d.eventId)).toEqual(
      busyEvents
        .slice(0, 5)
        .reverse()
        .map((e) => e.id),
    );
    expect(await page.getByRole('link', { name: 'Older events' }).count()).toBe(0);
    await navigateBy(page, () => page.getByRole('link', { name: 'Newest events' }).click());
    expect(await rows(page, 'events').count()).toBe(25);

    expect(await rows(page, 'users').count()).toBe(10);
    await expect(rows(page, 'users').first().textContent()).resolves.toContain(
      'person0@example.com',
    );
    await navigateBy(page, () => page.getByRole('link', { name: 'More users' }).click());
    expect(await rows(page, 'users').count()).toBe(2);
    expect(await rows(page, 'events').count()).toBe(25);
    await page.close();
  });

  it('narrows the events with a query, and shows a bad query’s position and what was expected', async () => {
    const page = await signedIn(admin);
    await page.goto(`${base}/u/detections/${BUSY}`);
    await page.getByLabel('Filter events').fill('risk_score >= 8');
    await navigateBy(page, () => page.getByRole('button', { name: 'Apply' }).click());
    const expected = busyEvents
      .filter((e) => e.risk_score >= 8)
      .reverse()
      .map((e) => e.id);
    expect((await firstCells(page, 'events')).map((d) => d.eventId)).toEqual(expected);
    expect(await page.getByLabel('Filter events').inputValue()).toBe('risk_score >= 8');

    await page.getByLabel('Filter events').fill('happened > 2024');
    const refused = await navigateBy(page, () =>
      page.getByRole('button', { name: 'Apply' }).click(),
    );
    expect(refused.status()).toBe(400);
    await expect(page.locator('#q-error').textContent()).resolves.toContain(
      'expected a quoted ISO 8601 UTC timestamp after `happened >` at column 12',
    );
    expect(await page.getByLabel('Filter events').getAttribute('aria-invalid')).toBe('true');
    expect(await rows(page, 'events').count()).toBe(0);
    await screenshot(page, 'detection-query-error');

    await navigateBy(page, () => page.getByRole('link', { name: 'Clear' }).click());
    expect(await rows(page, 'events').count()).toBe(25);
    await page.close();
  });

  it('follows the global settings until the toggle is on, then keeps its own; off returns to global', async () => {
    const detection = QUIET[3];
    await store.saveGlobal({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      emailEnabled: true,
      recipients: ['soc@example.com'],
      frequency: 'immediate',
    });
    const page = await signedIn(admin);
    await page.goto(`${base}/u/detections/${detection}`);
    const toggle = page.getByRole('switch', { name: 'Use custom notification configuration' });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await expect(page.locator('#notifications').textContent()).resolves.toContain(
      'soc@example.com',
    );
    expect(await page.locator('#notifications form#recipients, #recipients').count()).toBe(0);

    await navigateBy(page, () => toggle.click());
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    const copied = await store.getDetectionConfig(detection);
    expect(copied).toEqual({ useCustom: true, custom: await store.getGlobal() });
    expect(await page.getByLabel('Recipients', { exact: true }).inputValue()).toBe(
      'soc@example.com',
    );

    await page.getByLabel('Recipients', { exact: true }).fill('night-shift@example.com');
    await page.getByLabel('Send webhook notifications').check();
    await page.getByLabel(/SOAR playbook/).check();
    await page.getByRole('radio', { name: /Threshold/ }).check();
    await page.getByLabel('Notify when the event count exceeds').fill('50');
    await navigateBy(page, () => page.getByRole('button', { name: 'Save settings' }).click());
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'Notification settings of this detection saved.',
    );
    expect((await store.getDetectionConfig(detection)).custom).toMatchObject({
      emailEnabled: true,
      recipients: ['night-shift@example.com'],
      frequency: 'threshold',
      threshold: 50,
      webhookEnabled: true,
      webhookProviderIds: [providerId],
    });
    await screenshot(page, 'detection-custom-settings');

    // Later global changes no longer reach a custom detection.
    await store.saveGlobal({ ...(await store.getGlobal()), recipients: ['day-shift@example.com'] });
    await page.reload();
    expect(await page.getByLabel('Recipients', { exact: true }).inputValue()).toBe(
      'night-shift@example.com',
    );

    await navigateBy(page, () => toggle.click());
    expect(await store.getDetectionConfig(detection)).toEqual({ useCustom: false, custom: null });
    await expect(page.locator('#notifications').textContent()).resolves.toContain(
      'day-shift@example.com',
    );
    await page.close();
  });

  it('refuses invalid custom settings next to the field, keeping what was typed', async () => {
    const detection = QUIET[4];
    const page = await signedIn(admin);
    await page.goto(`${base}/u/detections/${detection}`);
    await navigateBy(page, () =>
      page.getByRole('switch', { name: 'Use custom notification configuration' }).click(),
    );
    const before = await store.getDetectionConfig(detection);
    await page.getByLabel('Send email notifications').check();
    await page.getByLabel('Recipients', { exact: true }).fill('not-an-address');
    const refused = await navigateBy(page, () =>
      page.getByRole('button', { name: 'Save settings' }).click(),
    );
    expect(refused.status()).toBe(422);
    await expect(page.locator('#recipients-error').textContent()).resolves.toContain(
      '“not-an-address” is not a valid email address.',
    );
    expect(await page.getByLabel('Recipients', { exact: true }).inputValue()).toBe(
      'not-an-address',
    );
    expect(await store.getDetectionConfig(detection)).toEqual(before);
    await screenshot(page, 'detection-settings-error');
    await page.close();
  });

  it('snoozes an inheriting detection by copying the global settings; it stays custom after resuming', async () => {
    const detection = QUIET[5];
    const global = await store.getGlobal();
    const page = await signedIn(admin);
    await page.goto(`${base}/u/detections/${detection}`);
    const before = Date.now();
    await navigateBy(page, () => page.getByRole('button', { name: 'Snooze 24 h' }).click());
    const snoozed = await store.getDetectionConfig(detection);
    expect(snoozed.useCustom).toBe(true);
    expect({ ...snoozed.custom, silence: null }).toEqual({ ...global, silence: null });
    expect(snoozed.custom!.silence).toEqual({ kind: 'snoozed', until: expect.any(Number) });
    const until = (snoozed.custom!.silence as { until: number }).until;
    expect(until - before).toBeGreaterThanOrEqual(DAY - 1_000);
    expect(until - Date.now()).toBeLessThanOrEqual(DAY);
    expect(
      await page
        .getByRole('switch', { name: 'Use custom notification configuration' })
        .getAttribute('aria-checked'),
    ).toBe('true');
    await expect(page.locator('#notifications .card-header').textContent()).resolves.toContain(
      'Snoozed',
    );
    await screenshot(page, 'detection-snoozed');

    await navigateBy(page, () => page.getByRole('button', { name: 'Resume' }).click());
    expect(await store.getDetectionConfig(detection)).toEqual({
      useCustom: true,
      custom: { ...snoozed.custom, silence: { kind: 'none' } },
    });

    await navigateBy(page, () => page.getByRole('button', { name: 'Disable' }).click());
    expect((await store.getDetectionConfig(detection)).custom!.silence).toEqual({
      kind: 'disabled',
    });
    await expect(page.locator('#notifications .card-header').textContent()).resolves.toContain(
      'Disabled',
    );

    // A snooze that has run out leaves the detection custom and notifying.
    await store.saveDetectionConfig(detection, {
      useCustom: true,
      custom: { ...global, silence: { kind: 'snoozed', until: Date.now() - MINUTE } },
    });
    await page.reload();
    await expect(page.locator('#notifications .card-header').textContent()).resolves.toContain(
      'Notifications on',
    );
    expect(
      await page
        .getByRole('switch', { name: 'Use custom notification configuration' })
        .getAttribute('aria-checked'),
    ).toBe('true');
    await page.close();
  });

  it('shows a member the settings read-only and refuses a direct POST with a valid CSRF token', async () => {
    const detection = QUIET[6];
    const page = await signedIn(member);
    await page.goto(`${base}/u/detections/${detection}`);
    await expect(page.locator('#notifications').textContent()).resolves.toContain(
      'Only workspace admins can change notification settings.',
    );
    expect(await page.locator('#notifications form').count()).toBe(0);
    expect(await page.getByRole('switch').count()).toBe(0);
    await screenshot(page, 'detection-member');

    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const post = (path: string, fields: Record<string, string>) =>
      page.evaluate(
        `fetch('/u/detections/${detection}/notifications${path}', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(${JSON.stringify({ _csrf: csrf, ...fields })}),
        }).then((r) => r.status)`,
      );
    expect(await post('/custom', { use_custom: 'on' })).toBe(403);
    expect(await post('/silence', { silence: 'disable' })).toBe(403);
    expect(await post('', { email_enabled: 'on', recipients: 'x@example.com' })).toBe(403);
    expect(await store.getDetectionConfig(detection)).toEqual({ useCustom: false, custom: null });
    await page.close();
  });

  it('answers 404 for an unknown detection and keeps no settings for it', async () => {
    const page = await signedIn(admin);
    const response = await page.goto(`${base}/u/detections/det-nope`);
    expect(response!.status()).toBe(404);
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const status = await page.evaluate(
      `fetch('/u/detections/det-nope/notifications/silence', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: '${csrf}', silence: '1h' }),
      }).then((r) => r.status)`,
    );
    expect(status).toBe(404);
    expect((await store.listDetectionConfigs()).map((c) => c.detectionId)).not.toContain(
      'det-nope',
    );
    await page.close();
  });

  describe('what would be sent now', () => {
    const dryRun = (id: string) => `${base}/u/detections/${id}/dry-run`;

    beforeAll(async () => {
      await store.saveGlobal({
        ...DEFAULT_NOTIFICATION_SETTINGS,
        emailEnabled: true,
        recipients: ['soc@example.com'],
        frequency: 'immediate',
        webhookEnabled: true,
        webhookProviderIds: [providerId],
      });
    });

    it('shows, from the detection’s page, each channel and target with the payload it would send', async () => {
      const page = await signedIn(admin);
      await page.goto(`${base}/u/detections/${BUSY}`);
      await navigateBy(page, () =>
        page.getByRole('link', { name: 'What would be sent now' }).click(),
      );
      expect(new URL(page.url()).pathname).toBe(`/u/detections/${BUSY}/dry-run`);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'What would be sent now',
      );
      await expect(page.locator('.dry-run-basis').textContent()).resolves.toMatch(
        /from the state the\s+processor recorded at .+ \(event count 30\)/,
      );

      const webhooks = page.locator('#dry-run-webhook');
      await expect(webhooks.getByRole('heading', { level: 2 }).textContent()).resolves.toBe(
        'Webhooks',
      );
      await expect(webhooks.locator('.card-header').textContent()).resolves.toContain(
        'Would send: Immediately.',
      );
      const row = webhooks.getByRole('row').filter({ hasText: 'SOAR playbook' });
      await expect(row.textContent()).resolves.toContain('Would send');

      const details = webhooks.locator('details').filter({ hasText: 'Payload for SOAR playbook' });
      expect(await details.locator('pre').isVisible()).toBe(false);
      await details.locator('summary').click();
      const payload = JSON.parse((await details.locator('pre').textContent())!) as {
        notification: { title: string; body: string };
        delivery: { id: string; recipient_name: string };
        metadata: Record<string, unknown>;
      };
      expect(payload.notification.title).toBe('Mass download: 5 new events');
      expect(payload.delivery).toEqual({
        id: '(placeholder: the delivery id is assigned when it is sent)',
        recipient_name: 'SOAR playbook',
        channel: 'webhook',
      });
      expect(payload.metadata).toMatchObject({
        detection_id: BUSY,
        previous_count: 25,
        current_count: 30,
        event_count: 5,
      });
      expect((payload.metadata.events as { id: string }[]).map((e) => e.id)).toEqual(
        busyEvents.slice(25).map((e) => e.id),
      );

      const email = page.locator('#dry-run-email');
      await expect(
        email.getByRole('row').filter({ hasText: 'soc@example.com' }).textContent(),
      ).resolves.toContain('Would send');
      await email.locator('summary').click();
      await expect(email.locator('pre').textContent()).resolves.toContain(
        'Subject: Mass download: 5 new events',
      );
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'detection-dry-run');
      await page.close();
    });

    it('says why nothing would be sent, and when the state is not recorded yet', async () => {
      const page = await signedIn(admin);
      await page.goto(dryRun(QUIET[7]));
      const webhooks = page.locator('#dry-run-webhook');
      await expect(webhooks.locator('.card-header').textContent()).resolves.toContain(
        'Sends nothing',
      );
      await expect(webhooks.locator('.card-header').textContent()).resolves.toMatch(
        /The event count has not risen since the last notification, at count 1 on 2025-05-01 08:08:00 UTC\./,
      );
      expect(await page.locator('details').count()).toBe(0);
      await screenshot(page, 'detection-dry-run-nothing');

      await page.goto(dryRun(QUIET[8]));
      await expect(page.getByRole('status').textContent()).resolves.toContain(
        'No notification state recorded yet',
      );
      expect((await page.goto(dryRun('det-nope')))!.status()).toBe(404);
      await page.close();
    });

    it('lets a member see it too: it shows only what the detection’s page shows', async () => {
      const page = await signedIn(member);
      const response = await page.goto(dryRun(BUSY));
      expect(response!.status()).toBe(200);
      await expect(page.locator('#dry-run-webhook').textContent()).resolves.toContain(
        'SOAR playbook',
      );
      expect(await page.locator('form[method="post"]').count()).toBe(1); // sign out only
      await page.close();
    });
  });

  it.each([1280, 800])(
    'lays out the Detections pages without sideways scrolling at %i px',
    async (width) => {
      const page = await signedIn(admin, width);
      for (const [path, name] of [
        ['/u/detections', 'layout-detections'],
        [`/u/detections/${BUSY}`, 'layout-detection'],
        [`/u/detections/${QUIET[3]}`, 'layout-detection-inherit'],
        [`/u/detections/${QUIET[5]}`, 'layout-detection-custom'],
        [`/u/detections/${BUSY}/dry-run`, 'layout-detection-dry-run'],
        [`/u/detections/${QUIET[7]}/dry-run`, 'layout-detection-dry-run-nothing'],
      ] as const) {
        await page.goto(`${base}${path}`);
        // Payloads open: their blocks scroll on their own, never the page.
        await page
          .locator('details')
          .evaluateAll((all) =>
            all.forEach((d) => ((d as unknown as { open: boolean }).open = true)),
          );
        expect(await overflowsHorizontally(page)).toBe(false);
        await screenshot(page, name);
      }
      await page.close();
    },
  );
});
