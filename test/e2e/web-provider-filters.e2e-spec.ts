import type { Page } from 'playwright-core';
import { anEventRecord } from '@vigil/contracts';
import { SqlAuditLog, SqlDeliveryStore, WebhookProviderService } from '@vigil/control-plane';
import { navigateBy, overflowsHorizontally, screenshot } from '../support/browser';
import { indexReadModels } from '../support/index-read-models';
import { startWebHarness, type WebHarness } from '../support/web-harness';

jest.setTimeout(180_000);

const PATH = '/settings/integrations';

/**
 * Which notifications a provider receives, in the browser: set at enrollment, refused field by
 * field (a source must be one events have come from), changed on the provider's page by admins
 * only, and a notification held back listed as skipped with the reason.
 */
describe('web application: provider filters', () => {
  let harness: WebHarness;
  let providers: WebhookProviderService;

  beforeAll(async () => {
    harness = await startWebHarness({ env: { NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' } });
    providers = new WebhookProviderService(harness.sql, {
      policy: { allowPrivate: true, allowlist: [] },
    });
    await indexReadModels({
      events: [anEventRecord({ source: 'okta' }), anEventRecord({ source: 'github' })],
    });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  async function openForm(width = 1280): Promise<Page> {
    const page = await harness.signedIn(harness.admin, { width });
    await page.goto(`${harness.url}${PATH}/new`);
    return page;
  }

  const submit = (page: Page, name: string) =>
    navigateBy(page, () => page.getByRole('button', { name }).click());

  it('refuses a filter field by field at enrollment, naming the sources events came from', async () => {
    for (const width of [1280, 800]) {
      const page = await openForm(width);
      await page.getByLabel('Name').fill(`Paging ${width}`);
      await page.getByLabel('URL').fill('http://127.0.0.1:9/paging');
      await page.getByLabel('Minimum risk score').fill('high');
      await page.getByLabel('Sources').fill('okta, splunk');
      const response = await submit(page, 'Enroll provider');
      expect(response.status()).toBe(422);
      await expect(page.locator('#filterMinRiskScore-error').textContent()).resolves.toContain(
        'The minimum must be a number of at least 0',
      );
      const sources = await page.locator('#filterSources-error').textContent();
      expect(sources).toContain('"splunk" is not a known source (known: github, okta)');
      expect(await page.getByLabel('Sources').getAttribute('aria-invalid')).toBe('true');
      const links = await page.locator('#error-summary').getByRole('link').all();
      await expect(Promise.all(links.map((link) => link.getAttribute('href')))).resolves.toEqual([
        '#filterMinRiskScore',
        '#filterSources',
      ]);
      // Keyboard: the summary's link takes the focus to the field.
      await links[1].focus();
      await page.keyboard.press('Enter');
      await expect(page.evaluate('document.activeElement.id')).resolves.toBe('filterSources');
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'integrations-enroll-filter-refused');
      expect((await providers.list()).some((p) => p.name === `Paging ${width}`)).toBe(false);
      await page.close();
    }
  });

  it('enrolls with a filter, shows it, and lets an admin change it, audited', async () => {
    const page = await openForm(800);
    await page.getByLabel('Name').fill('Paging');
    await page.getByLabel('URL').fill('http://127.0.0.1:9/paging');
    await page.getByRole('radio', { name: 'Detections only' }).check();
    await page.getByLabel('Minimum risk score').fill('7');
    await page.getByLabel('Sources').fill('OKTA');
    await submit(page, 'Enroll provider');
    await page.goto(`${harness.url}${PATH}`);
    const [paging] = (await providers.list()).filter((p) => p.name === 'Paging');
    expect(paging.filter).toEqual({ subjects: 'detections', minRiskScore: 7, sources: ['okta'] });

    await page.goto(`${harness.url}${PATH}/${paging.id}`);
    expect(await page.locator('main').innerText()).toContain(
      'Detections only; risk score 7 and above; from okta',
    );
    await navigateBy(page, () => page.getByRole('link', { name: 'Edit filter' }).click());
    // The form starts from the provider's filter.
    await expect(page.getByLabel('Minimum risk score').inputValue()).resolves.toBe('7');
    await expect(page.getByLabel('Sources').inputValue()).resolves.toBe('okta');
    await screenshot(page, 'integrations-provider-filter');
    await page.getByRole('radio', { name: 'Investigations only' }).check();
    await page.getByLabel('Minimum risk score').fill('');
    await page.getByLabel('Sources').fill('');
    await submit(page, 'Save filter');
    expect(page.url()).toContain('?notice=filter-changed');
    expect(await page.locator('main').innerText()).toContain('Investigations only');
    const { events } = await new SqlAuditLog(harness.sql).list({
      action: 'provider.filter_changed',
    });
    expect(events[0]).toMatchObject({
      actor: { type: 'user' },
      target: { id: paging.id },
      details: {
        before: { subjects: 'detections', minRiskScore: 7, sources: ['okta'] },
        after: { subjects: 'investigations', minRiskScore: null, sources: [] },
      },
    });
    await page.close();
  });

  it('refuses a bad filter change on its field and changes nothing', async () => {
    const { provider } = await providers.enroll({
      name: 'Chat',
      kind: 'custom',
      url: 'http://127.0.0.1:9/chat',
    });
    const page = await harness.signedIn(harness.admin, { width: 1280 });
    await page.goto(`${harness.url}${PATH}/${provider.id}/filter`);
    await page.getByLabel('Minimum risk score').fill('-2');
    const response = await submit(page, 'Save filter');
    expect(response.status()).toBe(422);
    await expect(page.locator('#filterMinRiskScore-error').isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Minimum risk score').inputValue()).resolves.toBe('-2');
    expect(await overflowsHorizontally(page)).toBe(false);
    await screenshot(page, 'integrations-provider-filter-refused');
    expect((await providers.list()).find((p) => p.id === provider.id)?.filter.minRiskScore).toBe(
      null,
    );
    await page.close();
  });

  it('lists a notification the filter held back as skipped, with the reason', async () => {
    const { provider } = await providers.enroll({
      name: 'Investigations desk',
      kind: 'custom',
      url: 'http://127.0.0.1:9/desk',
      filter: { subjects: 'investigations' },
    });
    await harness.sql.transaction((tx) =>
      new SqlDeliveryStore(harness.sql).insert(tx, [
        {
          id: '33333333-3333-4333-8333-333333333333',
          notificationId: 'n-skipped',
          kind: 'detection',
          channel: 'webhook',
          target: provider.id,
          subjectId: 'det-default',
          payload: {},
          skippedBecause: 'Filtered out: this provider receives investigations only.',
        },
      ]),
    );
    for (const width of [1280, 800]) {
      const page = await harness.signedIn(harness.admin, { width });
      await page.goto(`${harness.url}${PATH}/${provider.id}`);
      const row = page.locator('tr[data-delivery-id="33333333-3333-4333-8333-333333333333"]');
      const text = await row.innerText();
      expect(text).toContain('Skipped');
      expect(text).toContain('Filtered out: this provider receives investigations only.');
      // Nothing to resend: it was never meant to be sent.
      expect(await row.getByRole('button', { name: 'Resend' }).count()).toBe(0);
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'integrations-provider-skipped');
      await page.close();
    }
  });

  it('keeps changing filters for workspace admins only, on the server', async () => {
    const [paging] = (await providers.list()).filter((p) => p.name === 'Paging');
    const page = await harness.signedIn(harness.member);
    const shown = await page.goto(`${harness.url}${PATH}/${paging.id}/filter`);
    expect(shown?.status()).toBe(403);
    await page.goto(`${harness.url}${PATH}/${paging.id}`);
    expect(await page.getByRole('link', { name: 'Edit filter' }).count()).toBe(0);
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const post = (body: string) =>
      page.evaluate(
        `fetch('${PATH}/${paging.id}/filter', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(${body}),
        }).then((r) => r.status)`,
      );
    await expect(post(`{ _csrf: '${csrf}', filterSubjects: 'all' }`)).resolves.toBe(403);
    const admin = await harness.signedIn(harness.admin);
    await admin.goto(`${harness.url}${PATH}/${paging.id}`);
    // Without its form's token, not even an admin's change is taken.
    await expect(
      admin.evaluate(
        `fetch('${PATH}/${paging.id}/filter', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ filterSubjects: 'all' }),
        }).then((r) => r.status)`,
      ),
    ).resolves.toBe(403);
    await admin.close();
    expect((await providers.list()).find((p) => p.id === paging.id)?.filter.subjects).toBe(
      'investigations',
    );
    await page.close();
  });
});
