import type { Page } from 'playwright-core';
import { anEventRecord } from '@vigil/contracts';
import {
  FallbackDestinationService,
  SqlAuditLog,
  SqlDeliveryStore,
  WebhookProviderService,
  operatorActor,
  type WebhookProviderView,
} from '@vigil/control-plane';
import { navigateBy, overflowsHorizontally, screenshot } from '../support/browser';
import { indexReadModels } from '../support/index-read-models';
import { startWebHarness, type WebHarness } from '../support/web-harness';

jest.setTimeout(180_000);

const PATH = '/settings/integrations';
const NOTIFIER = { actor: operatorActor('notifier') };
const DETECTION = 'det-impossible-travel';

/**
 * Endpoint health in the browser: a provider the notifier disabled is announced to admins on
 * every page (not to members) and on its own page with the reason; an admin enables it again,
 * recovering its deliveries, or disables one by hand; and who is told when a delivery dies,
 * globally or for one detection. Every change is for admins only, on the server, and needs its
 * form's token.
 */
describe('web application: endpoint health', () => {
  let harness: WebHarness;
  let providers: WebhookProviderService;
  let soar: WebhookProviderView;
  let paging: WebhookProviderView;

  beforeAll(async () => {
    harness = await startWebHarness({ env: { NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' } });
    providers = new WebhookProviderService(harness.sql, {
      policy: { allowPrivate: true, allowlist: [] },
    });
    ({ provider: soar } = await providers.enroll({
      name: 'SOAR <prod>',
      kind: 'custom',
      url: 'http://127.0.0.1:9/soar',
    }));
    // Two notifications waiting to be sent when the notifier gives up on the endpoint.
    await harness.sql.transaction((tx) =>
      new SqlDeliveryStore(harness.sql).insert(
        tx,
        ['44444444-4444-4444-8444-444444444441', '44444444-4444-4444-8444-444444444442'].map(
          (id, i) => ({
            id,
            notificationId: `n-${i}`,
            kind: 'detection' as const,
            channel: 'webhook' as const,
            target: soar.id,
            subjectId: 'det-default',
            payload: {},
          }),
        ),
      ),
    );
    await providers.disable(soar.id, 'Every attempt failed for 72 hours', NOTIFIER);
    ({ provider: paging } = await providers.enroll({
      name: 'Paging',
      kind: 'custom',
      url: 'http://127.0.0.1:9/paging',
    }));
    await indexReadModels({ events: [anEventRecord({ detection_id: DETECTION })] });
  });

  afterAll(async () => {
    // The database is shared with the specs that run after this one: no disabled provider
    // (the banner) and no fallback destination (extra deliveries) is left behind.
    if (harness) {
      const fallbacks = new FallbackDestinationService(harness.sql);
      await fallbacks.setGlobal({}, NOTIFIER);
      await fallbacks.setForDetection(DETECTION, {}, NOTIFIER);
      for (const provider of [soar, paging]) {
        if (provider) await providers.delete(provider.id).catch(() => undefined);
      }
    }
    await harness?.stop();
  });

  const submit = (page: Page, name: string) =>
    navigateBy(page, () => page.getByRole('button', { name }).click());

  /** A form post from the page's own origin, with the given fields; resolves to its status. */
  const post = (page: Page, path: string, fields: Record<string, string>) =>
    page.evaluate(
      `fetch('${path}', {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(${JSON.stringify(fields)}),
      }).then((r) => r.status)`,
    );

  it('announces a disabled provider to admins on every page, not to members', async () => {
    for (const width of [1280, 800]) {
      const page = await harness.signedIn(harness.admin, { width });
      for (const path of ['/u/detections', '/settings/members']) {
        await page.goto(`${harness.url}${path}`);
        const banner = page.locator('#disabled-providers');
        await expect(banner.getAttribute('role')).resolves.toBe('status');
        const text = await banner.innerText();
        expect(text).toContain('SOAR <prod> was disabled at');
        expect(text).toContain('Every attempt failed for 72 hours');
        expect(await banner.isVisible()).toBe(true);
      }
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'endpoint-health-banner');
      await navigateBy(page, () => page.getByRole('link', { name: 'Review SOAR <prod>' }).click());
      expect(page.url()).toBe(`${harness.url}${PATH}/${soar.id}`);
      await page.close();
    }
    const member = await harness.signedIn(harness.member);
    await member.goto(`${harness.url}/u/detections`);
    expect(await member.locator('#disabled-providers').count()).toBe(0);
    await member.goto(`${harness.url}${PATH}/${soar.id}`);
    expect(await member.locator('#disabled-providers').count()).toBe(0);
    await member.close();
  });

  it('shows why a provider is disabled on its page, and its deliveries as skipped meanwhile', async () => {
    for (const width of [1280, 800]) {
      const page = await harness.signedIn(harness.admin, { width });
      await page.goto(`${harness.url}${PATH}/${soar.id}`);
      const health = await page.locator('#provider-health').innerText();
      expect(health).toMatch(/Disabled at .* UTC: Every attempt failed for 72 hours/);
      expect(health).toContain('Its notifications are recorded as skipped until it is enabled.');
      const row = page.locator('tr[data-delivery-id="44444444-4444-4444-8444-444444444441"]');
      expect(await row.innerText()).toContain('Skipped while the provider was disabled');
      expect(await page.getByRole('link', { name: 'Enable…' }).count()).toBe(1);
      expect(await page.getByRole('link', { name: 'Disable…' }).count()).toBe(0);
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'endpoint-health-provider-disabled');
      await page.close();
    }
  });

  it('refuses a recovery time in the future on its field, and enables nothing', async () => {
    for (const width of [1280, 800]) {
      const page = await harness.signedIn(harness.admin, { width });
      await page.goto(`${harness.url}${PATH}/${soar.id}`);
      await navigateBy(page, () => page.getByRole('link', { name: 'Enable…' }).click());
      await page.getByRole('radio', { name: 'Enable and recover' }).check();
      await page.getByLabel('Recover deliveries created since (UTC)').fill('2999-01-01T00:00');
      const response = await submit(page, 'Enable provider');
      expect(response.status()).toBe(422);
      await expect(page.locator('#since-error').textContent()).resolves.toContain(
        'the time is in the future',
      );
      const since = page.getByLabel('Recover deliveries created since (UTC)');
      await expect(since.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(since.inputValue()).resolves.toBe('2999-01-01T00:00');
      // The choice made is kept, and the summary's link takes the keyboard to the field.
      expect(await page.getByRole('radio', { name: 'Enable and recover' }).isChecked()).toBe(true);
      await page.locator('#error-summary a[href="#since"]').focus();
      await page.keyboard.press('Enter');
      await expect(page.evaluate('document.activeElement.id')).resolves.toBe('since');
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'endpoint-health-enable-refused');
      await page.close();
    }
    expect((await providers.listDisabled()).map((p) => p.id)).toEqual([soar.id]);
  });

  it('enables the provider and recovers its deliveries, audited', async () => {
    const page = await harness.signedIn(harness.admin, { width: 800 });
    await page.goto(`${harness.url}${PATH}/${soar.id}/enable`);
    // Recovering starts, unless changed, from when the provider was disabled.
    const since = page.getByLabel('Recover deliveries created since (UTC)');
    expect(await since.inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    await page.getByRole('radio', { name: 'Enable and recover' }).check();
    await since.fill('2020-01-01T00:00');
    await screenshot(page, 'endpoint-health-enable');
    await submit(page, 'Enable provider');
    expect(page.url()).toContain(`${PATH}/${soar.id}?notice=enabled`);
    expect(await page.getByRole('status').first().innerText()).toContain(
      'Provider enabled; 2 deliveries queued again in the order they were created.',
    );
    expect(await page.locator('#disabled-providers').count()).toBe(0);
    expect(await page.locator('#provider-health').count()).toBe(0);
    const { events } = await new SqlAuditLog(harness.sql).list({ action: 'deliveries.recovered' });
    expect(events[0]).toMatchObject({
      actor: { type: 'user', label: harness.admin.email },
      target: { id: soar.id },
      details: { since: '2020-01-01T00:00:00.000Z', recovered: 2 },
    });
    expect(await providers.listDisabled()).toEqual([]);
    await page.close();
  });

  it('disables a provider by hand, saying who did when no reason is given', async () => {
    const page = await harness.signedIn(harness.admin, { width: 1280 });
    await page.goto(`${harness.url}${PATH}/${soar.id}`);
    await navigateBy(page, () => page.getByRole('link', { name: 'Disable…' }).click());
    await screenshot(page, 'endpoint-health-disable');
    await submit(page, 'Disable provider');
    expect(page.url()).toContain('?notice=disabled');
    expect(await page.locator('#provider-health').innerText()).toContain(
      `Disabled by ${harness.admin.email}`,
    );
    const { events } = await new SqlAuditLog(harness.sql).list({ action: 'provider.disabled' });
    expect(events[0]).toMatchObject({
      actor: { type: 'user', label: harness.admin.email },
      details: { reason: `Disabled by ${harness.admin.email}` },
    });
    await page.close();
  });

  it('refuses a bad recipient of the global fallback on its field, and sets it', async () => {
    for (const width of [1280, 800]) {
      const page = await harness.signedIn(harness.admin, { width });
      await page.goto(`${harness.url}${PATH}`);
      const card = page.locator('#fallback');
      expect(await card.innerText()).toContain(
        'None: a delivery that dies after its last retry is only listed as dead.',
      );
      await screenshot(page, 'endpoint-health-fallback-none');
      await navigateBy(page, () =>
        page.getByRole('link', { name: 'Change the fallback destination' }).click(),
      );
      // A disabled provider is not offered.
      const offered = await page.getByLabel('Provider').locator('option').allInnerTexts();
      expect(offered.map((o) => o.trim())).toEqual(['None', 'Paging']);
      await page.getByLabel('Provider').selectOption({ label: 'Paging' });
      await page.getByLabel('Recipients').fill('soc@example.com\nnot-an-address');
      const response = await submit(page, 'Save fallback destination');
      expect(response.status()).toBe(422);
      await expect(page.locator('#recipients-error').textContent()).resolves.toContain(
        '"not-an-address" is not an email address',
      );
      await expect(page.getByLabel('Recipients').getAttribute('aria-invalid')).resolves.toBe(
        'true',
      );
      // What was typed and chosen is kept.
      await expect(page.getByLabel('Provider').inputValue()).resolves.toBe(paging.id);
      await page.locator('#error-summary a[href="#recipients"]').focus();
      await page.keyboard.press('Enter');
      await expect(page.evaluate('document.activeElement.id')).resolves.toBe('recipients');
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'endpoint-health-fallback-refused');
      await page.close();
    }
    const fallbacks = new FallbackDestinationService(harness.sql);
    expect((await fallbacks.show()).global).toBeNull();

    const page = await harness.signedIn(harness.admin, { width: 800 });
    await page.goto(`${harness.url}${PATH}/fallback`);
    await page.getByLabel('Provider').selectOption({ label: 'Paging' });
    await page.getByLabel('Recipients').fill('soc@example.com, oncall@example.com');
    await submit(page, 'Save fallback destination');
    expect(page.url()).toContain(`${PATH}?notice=fallback-changed#fallback`);
    const text = await page.locator('#fallback').innerText();
    expect(text).toContain('Fallback destination saved.');
    expect(text).toContain('Provider Paging and email to soc@example.com, oncall@example.com.');
    await screenshot(page, 'endpoint-health-fallback-set');
    expect((await fallbacks.show()).global).toMatchObject({
      providerId: paging.id,
      recipients: ['soc@example.com', 'oncall@example.com'],
    });
    const { events } = await new SqlAuditLog(harness.sql).list({ action: 'fallback.changed' });
    expect(events[0]).toMatchObject({ actor: { type: 'user', label: harness.admin.email } });
    await page.close();
  });

  it("sets a detection's own fallback, which replaces the global one for it", async () => {
    const detectionPath = `/u/detections/${DETECTION}`;
    for (const width of [1280, 800]) {
      const page = await harness.signedIn(harness.admin, { width });
      await page.goto(`${harness.url}${detectionPath}`);
      expect(await page.locator('#fallback').innerText()).toContain(
        'Uses the global fallback (provider Paging and email to soc@example.com, oncall@example.com).',
      );
      await navigateBy(page, () =>
        page.getByRole('link', { name: 'Change the fallback destination' }).click(),
      );
      expect(page.url()).toBe(`${harness.url}${detectionPath}/fallback`);
      await screenshot(page, 'endpoint-health-fallback-detection');
      await page.close();
    }
    const page = await harness.signedIn(harness.admin, { width: 1280 });
    await page.goto(`${harness.url}${detectionPath}/fallback`);
    await page.getByLabel('Recipients').fill('ir-team@example.com');
    await submit(page, 'Save fallback destination');
    expect(page.url()).toContain(`${detectionPath}?notice=fallback-changed#fallback`);
    const text = await page.locator('#fallback').innerText();
    expect(text).toContain('Fallback destination of this detection saved.');
    expect(text).toContain('Email to ir-team@example.com.');
    expect(await overflowsHorizontally(page)).toBe(false);
    await screenshot(page, 'endpoint-health-fallback-detection-set');
    const shown = await new FallbackDestinationService(harness.sql).show(DETECTION);
    expect(shown.detection).toMatchObject({
      providerId: null,
      recipients: ['ir-team@example.com'],
    });
    // An unknown detection has no fallback page.
    const missing = await page.goto(`${harness.url}/u/detections/det-nope/fallback`);
    expect(missing?.status()).toBe(404);
    await page.close();
  });

  it('keeps disabling, enabling and fallbacks for admins only, never without the form token', async () => {
    const member = await harness.signedIn(harness.member);
    for (const path of [
      `${PATH}/${soar.id}/enable`,
      `${PATH}/${soar.id}/disable`,
      `${PATH}/fallback`,
      `/u/detections/${DETECTION}/fallback`,
    ]) {
      const shown = await member.goto(`${harness.url}${path}`);
      expect(shown?.status()).toBe(403);
    }
    await member.goto(`${harness.url}${PATH}`);
    expect(await member.locator('#fallback').innerText()).toContain('Provider Paging');
    expect(await member.getByRole('link', { name: /Change/ }).count()).toBe(0);
    await member.goto(`${harness.url}${PATH}/${soar.id}`);
    expect(await member.getByRole('link', { name: /Enable…|Disable…|Recover/ }).count()).toBe(0);
    const csrf = await member.locator('input[name="_csrf"]').first().inputValue();
    await expect(post(member, `${PATH}/${soar.id}/enable`, { _csrf: csrf })).resolves.toBe(403);
    await expect(post(member, `${PATH}/${soar.id}/disable`, { _csrf: csrf })).resolves.toBe(403);
    const recipients = { _csrf: csrf, recipients: 'member@example.com' };
    await expect(post(member, `${PATH}/fallback`, recipients)).resolves.toBe(403);
    await expect(post(member, `/u/detections/${DETECTION}/fallback`, recipients)).resolves.toBe(
      403,
    );
    await member.close();

    const admin = await harness.signedIn(harness.admin);
    await admin.goto(`${harness.url}${PATH}/${soar.id}`);
    await expect(post(admin, `${PATH}/${soar.id}/enable`, { recover: 'no' })).resolves.toBe(403);
    await expect(post(admin, `${PATH}/fallback`, { recipients: '' })).resolves.toBe(403);
    await admin.close();
    expect((await providers.listDisabled()).map((p) => p.id)).toEqual([soar.id]);
    const fallbacks = new FallbackDestinationService(harness.sql);
    expect((await fallbacks.show()).global?.recipients).toEqual([
      'soc@example.com',
      'oncall@example.com',
    ]);
  });
});
