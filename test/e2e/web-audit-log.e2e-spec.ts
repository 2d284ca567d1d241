import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import {
  SqlAuditLog,
  WebhookProviderService,
  createUserService,
  userActor,
} from '@vigil/control-plane';
import { anEventRecord } from '@vigil/contracts';
import { navigateBy, overflowsHorizontally, screenshot } from '../support/browser';
import { indexReadModels } from '../support/index-read-models';
import { startWebHarness, type WebHarness } from '../support/web-harness';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(240_000);

const LOG = '/settings/audit-log';

function button(page: Page, name: string) {
  return page.getByRole('button', { name, exact: true });
}

function click(page: Page, name: string) {
  return navigateBy(page, () => button(page, name).click());
}

/** The rows of the events table, as their text. */
async function rowTexts(page: Page): Promise<string[]> {
  return page.locator('table.audit-events tbody tr').allTextContents();
}

describe('web application: the audit log', () => {
  let harness: WebHarness;
  let receiver: WebhookReceiver;
  let base: string;
  let adminId: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    harness = await startWebHarness({ env: { NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' } });
    base = harness.url;
    adminId = (await createUserService(harness.sql).findByEmail(harness.admin.email))!.id;
  });

  afterAll(async () => {
    await harness?.stop();
    await receiver?.stop();
  });

  const audit = () => new SqlAuditLog(harness.sql);

  /** The newest event of `action` whose request id is `requestId`. */
  async function eventOf(action: string, requestId: string) {
    const { events } = await audit().list({ action, limit: 500 });
    const event = events.find((e) => e.requestId === requestId);
    if (event === undefined) throw new Error(`no ${action} under request ${requestId}`);
    return event;
  }

  /** An admin's page whose every request carries `requestId`, as a proxy's id would. */
  async function adminPage(requestId: string, width = 1280): Promise<Page> {
    const page = await harness.signedIn(harness.admin, { width });
    await page.setExtraHTTPHeaders({ 'x-request-id': requestId });
    return page;
  }

  it('records every security action of the web application with actor, time, address, request id and target', async () => {
    const run = `audit-${randomUUID()}`;
    const page = await adminPage(run);
    const started = Date.now() - 1000;

    // API key created and deleted.
    await page.goto(`${base}/settings/access/api-keys/new`);
    await page.getByLabel('Name').fill(`Audited key ${run}`);
    await page.getByLabel('Detection', { exact: true }).selectOption('read');
    await click(page, 'Generate Key');
    const value = await page.getByLabel('Key value').inputValue();
    await page.goto(`${base}/settings/access/api-keys`);
    await navigateBy(page, () =>
      page.getByRole('link', { name: `Delete token Audited key ${run}` }).click(),
    );
    await click(page, 'Delete Token');

    // Global settings saved and snoozed, with before and after.
    await page.goto(`${base}/settings/notifications`);
    await page.getByRole('radio', { name: /^Immediate/ }).check();
    await click(page, 'Save settings');
    await click(page, 'Snooze for 1 hour');
    await click(page, 'Resume notifications');

    // A provider enrolled, tested, rotated (both ways) and deleted.
    await page.goto(`${base}/settings/integrations/new`);
    await page.getByLabel('Name').fill(`Audited hook ${run}`);
    await page.getByLabel('URL').fill(receiver.url('/audited'));
    await click(page, 'Enroll provider');
    const secret = await page.getByLabel('Signing secret').inputValue();
    const providerPath = (await page.getByRole('link', { name: 'Done' }).getAttribute('href'))!;
    const providerId = providerPath.split('/').pop()!;
    await page.goto(`${base}${providerPath}`);
    await click(page, 'Send a test event');
    await navigateBy(page, () => page.getByRole('link', { name: 'Rotate secret' }).click());
    await click(page, 'Rotate secret');
    await page.goto(`${base}${providerPath}/rotate`);
    await click(page, 'Rotate now and stop the old secret at once');
    const rotated = await page.getByLabel('Signing secret').inputValue();
    await page.goto(`${base}${providerPath}/delete`);
    await click(page, 'Delete provider');

    const expected: [string, string, string][] = [
      ['token.created', 'api_token', ''],
      ['token.deleted', 'api_token', ''],
      ['settings.global_changed', 'settings', 'global'],
      ['provider.enrolled', 'webhook_provider', providerId],
      ['provider.test_sent', 'webhook_provider', providerId],
      ['provider.secret_rotated', 'webhook_provider', providerId],
      ['provider.deleted', 'webhook_provider', providerId],
    ];
    for (const [action, targetType, targetId] of expected) {
      const event = await eventOf(action, run);
      expect(event).toMatchObject({
        actor: userActor({ id: adminId, email: harness.admin.email }),
        address: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/),
        requestId: run,
        target: { type: targetType },
      });
      if (targetId !== '') expect(event.target?.id).toBe(targetId);
      expect(event.occurredAt.getTime()).toBeGreaterThanOrEqual(started);
    }
    const changes = (await audit().list({ action: 'settings.global_changed', limit: 500 })).events
      .filter((e) => e.requestId === run)
      .map((e) => e.details.change);
    expect(changes).toEqual(['resumed', 'snoozed', 'settings']);
    const rotations = (await audit().list({ action: 'provider.secret_rotated', limit: 500 })).events
      .filter((e) => e.requestId === run)
      .map((e) => e.details.previousSecretValidUntil);
    expect(rotations).toEqual([null, expect.any(String)]);

    // The page shows them, never a secret or a token value.
    await page.goto(
      `${base}${LOG}?${new URLSearchParams({ actor: harness.admin.email }).toString()}`,
    );
    const text = (await rowTexts(page)).join('\n');
    for (const label of [
      'API key created',
      'API key deleted',
      'Global notification settings changed',
      'Webhook provider enrolled',
      'Test event sent',
      'Signing secret rotated',
      'Webhook provider deleted',
    ]) {
      expect(text).toContain(label);
    }
    expect(text).toContain(run);
    expect(text).toContain('frequency: batch → immediate');
    const content = await page.content();
    for (const shown of [value, secret, rotated]) expect(content).not.toContain(shown);
    await screenshot(page, 'audit-log');
    await page.close();
  });

  it('records a detection’s custom settings and silences, with the configuration before and after', async () => {
    const run = `detection-${randomUUID()}`;
    const detection = `det-${run}`;
    await indexReadModels({ events: [anEventRecord({ detection_id: detection })] });
    const page = await adminPage(run);
    await page.goto(`${base}/u/detections/${detection}`);
    await navigateBy(page, () =>
      page.getByRole('switch', { name: 'Use custom notification configuration' }).click(),
    );
    await navigateBy(page, () =>
      page.getByRole('button', { name: 'Disable', exact: true }).click(),
    );
    const { events } = await audit().list({ targetType: 'detection', targetId: detection });
    expect(events.map((e) => [e.action, e.requestId, e.details.change])).toEqual([
      ['settings.detection_changed', run, 'disabled'],
      ['settings.detection_changed', run, 'custom_on'],
    ]);
    expect(events[1].details).toMatchObject({
      before: { useCustom: false, custom: null },
      after: { useCustom: true },
    });
    await page.close();
  });

  it('records a resend of a dead delivery', async () => {
    const run = `resend-${randomUUID()}`;
    const { provider } = await new WebhookProviderService(harness.sql, {
      policy: { allowPrivate: true, allowlist: [] },
    }).enroll({ name: `Resent ${run}`, kind: 'custom', url: receiver.url('/resent') });
    const page = await adminPage(run);
    await page.goto(`${base}/settings/integrations/${provider.id}`);
    await click(page, 'Send a test event');
    await harness.sql.query(
      "UPDATE deliveries SET status = 'dead', next_attempt_at = NULL WHERE target = $1",
      [provider.id],
    );
    await page.reload();
    await navigateBy(page, () => page.getByRole('button', { name: /^Resend delivery/ }).click());
    const event = await eventOf('delivery.resent', run);
    expect(event.details).toMatchObject({ channel: 'webhook', target: provider.id });
    await page.close();
  });

  it('filters by time, actor, action or kind of action and target, and pages with the cursor', async () => {
    const run = randomUUID();
    const ops = { actor: { type: 'operator' as const, id: null, label: `ops-${run}` } };
    for (let i = 0; i < 60; i++) {
      await audit().append({
        action: i % 3 === 0 ? 'user.disabled' : 'token.created',
        context: ops,
        target: { type: i % 3 === 0 ? 'user' : 'api_token', id: `${run}-${i}` },
        details: { n: i },
        occurredAt: new Date(Date.UTC(2025, 0, 1 + Math.floor(i / 10), 12, i)),
      });
    }
    const page = await adminPage(`filter-${run}`);
    await page.goto(`${base}${LOG}`);
    await page.getByLabel('Actor').fill(`ops-${run}`);
    await click(page, 'Apply filters');
    expect(await rowTexts(page)).toHaveLength(50);
    await navigateBy(page, () => page.getByRole('link', { name: 'Older events' }).click());
    expect(await rowTexts(page)).toHaveLength(10);
    expect(await page.getByRole('link', { name: 'Older events' }).count()).toBe(0);
    await navigateBy(page, () => page.getByRole('link', { name: 'Newest events' }).click());
    expect(await rowTexts(page)).toHaveLength(50);

    await page.getByLabel('Action').selectOption('user.');
    await click(page, 'Apply filters');
    const users = await rowTexts(page);
    expect(users).toHaveLength(20);
    expect(users.every((row) => row.includes('user.disabled'))).toBe(true);

    await page.getByLabel('Action').selectOption('');
    await page.getByLabel('From').fill('2025-01-02');
    await page.getByLabel('Until').fill('2025-01-03');
    await click(page, 'Apply filters');
    expect(await rowTexts(page)).toHaveLength(20);

    await page.goto(
      `${base}${LOG}?${new URLSearchParams({ target_type: 'user', target_id: `${run}-9` }).toString()}`,
    );
    const [only, ...none] = await rowTexts(page);
    expect(none).toEqual([]);
    expect(only).toContain(`${run}-9`);
    expect(only).toContain('n: 9');
    await page.close();
  });

  it('refuses a malformed filter or page link, naming the field, and shows nothing else', async () => {
    const page = await adminPage(`bad-${randomUUID()}`);
    const response = await page.goto(`${base}${LOG}?since=2026-02-30&until=yesterday`);
    expect(response?.status()).toBe(400);
    const summary = await page.getByRole('alert').textContent();
    expect(summary).toContain('From must be a date such as 2026-03-01.');
    expect(summary).toContain('Until must be a date such as 2026-03-31.');
    expect(await page.evaluate('document.activeElement.id')).toBe('error-summary');
    expect(await page.getByLabel('From').getAttribute('aria-invalid')).toBe('true');
    expect(await rowTexts(page)).toEqual([]);
    expect(
      (await page.goto(`${base}${LOG}?action=${encodeURIComponent("x' OR 1=1")}`))?.status(),
    ).toBe(400);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('The action must be');
    expect((await page.goto(`${base}${LOG}?cursor=garbage`))?.status()).toBe(400);
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      'This page link is not valid',
    );
    await screenshot(page, 'audit-log-refused');
    await page.close();
  });

  it('links a member’s row to their events', async () => {
    const page = await adminPage(`link-${randomUUID()}`);
    await page.goto(`${base}/settings/members`);
    await navigateBy(page, () =>
      page.getByRole('link', { name: `Audit log of ${harness.admin.name}` }).click(),
    );
    expect(new URL(page.url()).searchParams.get('actor')).toBe(harness.admin.email);
    expect(await page.getByLabel('Actor').inputValue()).toBe(harness.admin.email);
    const rows = await rowTexts(page);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.includes(harness.admin.email))).toBe(true);
    await page.close();
  });

  it('says how long events are kept, and offers no way to change them', async () => {
    const page = await adminPage(`read-only-${randomUUID()}`);
    await page.goto(`${base}${LOG}`);
    await expect(page.locator('.page-header').textContent()).resolves.toContain(
      'Events are kept for 365 days (AUDIT_RETENTION_DAYS)',
    );
    expect(await page.locator('form[method="post"]').count()).toBe(1); // sign-out only
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const before = (await audit().list({ limit: 500 })).events.length;
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const status = await page.evaluate<number>(
        `fetch('${LOG}', { method: '${method}', headers: { 'x-csrf-token': '${csrf}' } }).then((r) => r.status)`,
      );
      expect([method, status]).toEqual([method, 404]);
    }
    expect((await audit().list({ limit: 500 })).events.length).toBe(before);
    await page.close();
  });

  it('refuses a member, who sees no link to it', async () => {
    const page = await harness.signedIn(harness.member);
    expect(await page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    expect((await page.goto(`${base}${LOG}`))?.status()).toBe(403);
    await page.close();
  });

  it.each([1280, 800])(
    'lays out the audit log without sideways scrolling at %i px',
    async (width) => {
      const page = await adminPage(`layout-${randomUUID()}`, width);
      for (const path of [LOG, `${LOG}?action=settings.`, `${LOG}?since=nonsense`]) {
        await page.goto(`${base}${path}`);
        expect([path, await overflowsHorizontally(page)]).toEqual([path, false]);
      }
      await page.goto(`${base}${LOG}`);
      await screenshot(page, 'audit-log');
      await page.close();
    },
  );
});
