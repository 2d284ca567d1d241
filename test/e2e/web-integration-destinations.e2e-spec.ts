import type { Page } from 'playwright-core';
import { WebhookProviderService } from '@vigil/control-plane';
import { navigateBy, overflowsHorizontally, screenshot } from '../support/browser';
import { startWebHarness, type WebHarness } from '../support/web-harness';

jest.setTimeout(180_000);

const PATH = '/settings/integrations';
const SLACK_URL = 'https://hooks.slack.com/services/T0VIGIL01/B0VIGIL02/vigilTestWebhookSecret24';
const ROUTING_KEY = 'R0ABCDEFGHIJKLMNOPQRSTUVWXYZ0123';

/**
 * Enrolling Slack, Teams and PagerDuty providers in the browser: the form shows the fields of
 * the chosen destination, refuses each wrong field with a message on it, and the provider's
 * page says what it sends without showing its credential.
 */
describe('web application: providers of each destination', () => {
  let harness: WebHarness;
  let providers: WebhookProviderService;

  beforeAll(async () => {
    harness = await startWebHarness();
    providers = new WebhookProviderService(harness.sql);
  });

  afterAll(async () => {
    await harness?.stop();
  });

  async function openForm(width = 1280): Promise<Page> {
    const page = await harness.signedIn(harness.admin, { width });
    await page.goto(`${harness.url}${PATH}/new`);
    return page;
  }

  const enroll = (page: Page) =>
    navigateBy(page, () => page.getByRole('button', { name: 'Enroll provider' }).click());

  it('shows only the chosen destination’s fields', async () => {
    const page = await openForm();
    const address = page.locator('[data-destination-section~="slack"]');
    const pagerDuty = page.locator('[data-destination-section="pagerduty"]');
    await expect(address.isVisible()).resolves.toBe(true);
    await expect(pagerDuty.isVisible()).resolves.toBe(false);
    await page.getByRole('radio', { name: 'PagerDuty', exact: true }).check();
    await expect(address.isVisible()).resolves.toBe(false);
    await expect(pagerDuty.isVisible()).resolves.toBe(true);
    // Keyboard: the destination radios are one group, moved through with the arrow keys.
    await page.getByRole('radio', { name: 'PagerDuty', exact: true }).focus();
    await page.keyboard.press('ArrowUp');
    await expect(
      page.getByRole('radio', { name: 'Microsoft Teams', exact: true }).isChecked(),
    ).resolves.toBe(true);
    await expect(address.isVisible()).resolves.toBe(true);
    await screenshot(page, 'integrations-enroll-destinations');
    await page.close();
  });

  it('refuses a Slack URL that is not an incoming webhook, on the field, and enrolls a right one', async () => {
    const page = await openForm();
    await page.getByLabel('Name').fill('SOC channel');
    await page.getByRole('radio', { name: 'Slack', exact: true }).check();
    await page.getByLabel('URL').fill('https://example.com/services/T/B/x');
    let response = await enroll(page);
    expect(response.status()).toBe(422);
    const message = await page.locator('#url-error').textContent();
    expect(message).toMatch(/^The URL /);
    expect(message).toContain('hooks.slack.com');
    expect(await page.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    // The form comes back as typed, Slack still chosen.
    await expect(page.getByRole('radio', { name: 'Slack', exact: true }).isChecked()).resolves.toBe(
      true,
    );
    await expect(page.locator('[data-destination-section="pagerduty"]').isVisible()).resolves.toBe(
      false,
    );
    await screenshot(page, 'integrations-enroll-slack-refused');

    await page.getByLabel('URL').fill(SLACK_URL);
    response = await enroll(page);
    expect(response.status()).toBe(200);
    expect(page.url()).toMatch(/\/settings\/integrations\/[0-9a-f-]+\?notice=enrolled$/);
    const body = await page.locator('main').innerText();
    expect(body).toContain('Provider enrolled.');
    expect(body).toContain('Slack');
    expect(body).toContain('https://hooks.slack.com/services/…');
    expect(body).not.toContain('vigilTestWebhookSecret24');
    // No signing secret to rotate: Slack does not verify one.
    expect(await page.getByRole('link', { name: 'Rotate secret' }).count()).toBe(0);
    await page.goto(`${harness.url}${PATH}`);
    expect(await page.locator('main').innerText()).toContain('Custom webhook · Slack');
    expect(await page.content()).not.toContain('vigilTestWebhookSecret24');
    await page.close();
  });

  it('refuses a wrong routing key and a severity mapping with a gap, each on its field', async () => {
    for (const width of [1280, 800]) {
      const page = await openForm(width);
      await page.getByLabel('Name').fill(`On-call ${width}`);
      await page.getByRole('radio', { name: 'PagerDuty', exact: true }).check();
      await page.getByLabel('Integration key').fill('not-a-key');
      await page.getByLabel('Severity by risk score').fill('0-4 info\n5-10 critical');
      const response = await enroll(page);
      expect(response.status()).toBe(422);
      await expect(page.locator('#routingKey-error').textContent()).resolves.toMatch(
        /^The integration key /,
      );
      const gap = await page.locator('#severityBands-error').textContent();
      expect(gap).toMatch(/^Line 2: /);
      expect(gap).toContain('4');
      // The summary links to each field.
      const summary = page.locator('#error-summary');
      const links = await summary.getByRole('link').all();
      await expect(Promise.all(links.map((link) => link.getAttribute('href')))).resolves.toEqual([
        '#routingKey',
        '#severityBands',
      ]);
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'integrations-enroll-pagerduty-refused');
      expect((await providers.list()).some((p) => p.name === `On-call ${width}`)).toBe(false);
      await page.close();
    }
  });

  it('enrolls PagerDuty with its region and mapping, and shows them without the routing key', async () => {
    const page = await openForm(800);
    await page.getByLabel('Name').fill('On-call');
    await page.getByRole('radio', { name: 'PagerDuty', exact: true }).check();
    await page.getByLabel('Integration key').fill(ROUTING_KEY);
    await page.getByRole('radio', { name: 'EU', exact: true }).check();
    await page.getByLabel('Severity by risk score').fill('0-5 warning\n5-8 error\n8-10 critical');
    await page.getByLabel('Severity without a risk score').selectOption('error');
    const response = await enroll(page);
    expect(response.status()).toBe(200);
    const body = await page.locator('main').innerText();
    expect(body).toContain('PagerDuty');
    expect(body).toContain('https://events.eu.pagerduty.com/v2/enqueue');
    expect(body).toContain('0–5 warning, 5–8 error, 8–10 critical; without a score: error');
    expect(await page.content()).not.toContain(ROUTING_KEY);
    expect(await overflowsHorizontally(page)).toBe(false);
    await screenshot(page, 'integrations-provider-pagerduty');
    const [enrolled] = (await providers.list()).filter((p) => p.name === 'On-call');
    expect(enrolled).toMatchObject({ destination: 'pagerduty', pagerDuty: { region: 'eu' } });
    await page.close();
  });

  it('keeps enrolling providers for workspace admins only', async () => {
    const page = await harness.signedIn(harness.member);
    const response = await page.goto(`${harness.url}${PATH}/new`);
    expect(response?.status()).toBe(403);
    await page.close();
  });
});
