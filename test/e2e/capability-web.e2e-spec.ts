import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import type { RunningApp } from '@vigil/config';
import {
  SqlNotificationSettingsStore,
  createApiTokenService,
  createUserService,
  type ApiTokenService,
  type SqlClient,
} from '@vigil/control-plane';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import { startApi } from '../../apps/api/src/start-api';
import { startIndexer } from '../../apps/indexer/src/start-indexer';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { startWeb } from '../../apps/web/src/start-web';
import { launchBrowser, navigateBy, openPage, signIn } from '../support/browser';
import { capabilityEnvironments, openEnvironmentSql } from '../support/capability-environments';
import { anEventInput } from '../support/factories';
import { eventually, request } from '../support/http-client';

jest.setTimeout(120_000);

const PASSWORD = 'a long enough password';

describe.each(capabilityEnvironments())('web application on %s', (_name, env) => {
  const run = randomUUID().slice(0, 8);
  const DETECTION = `det-web-${run}`;
  const admin = { email: `admin-${run}@example.com`, name: 'Ada Admin' };
  const events = Array.from({ length: 3 }, (_, i) =>
    anEventInput({
      id: `evt-web-${run}-${i}`,
      detection_id: DETECTION,
      detection_name: `Mass download ${run}`,
      employee_email: `person${i % 2}@example.com`,
      happened: new Date(Date.UTC(2025, 5, 1, 8, 0, i)).toISOString(),
      description: `downloaded file batch ${i}`,
    }),
  );
  const apps: RunningApp[] = [];
  let browser: Browser;
  let sql: SqlClient;
  let tokens: ApiTokenService;
  let webUrl: string;
  let apiUrl: string;

  beforeAll(async () => {
    sql = await openEnvironmentSql(env);
    tokens = createApiTokenService(sql);
    await createUserService(sql).createUser({ ...admin, role: 'admin', password: PASSWORD });
    const appEnv = { ...env, WEB_PORT: '0', API_PORT: '0', INGEST_PORT: '0' };
    apps.push(await startIndexer(appEnv));
    const ingest = await startIngest(appEnv);
    apps.push(ingest);
    const api = await startApi(appEnv);
    apps.push(api);
    const web = await startWeb(appEnv);
    apps.push(web);
    apiUrl = api.url!;
    webUrl = web.url!;
    browser = await launchBrowser();

    const writer = (
      await tokens.createToken({ name: 'connector', permissions: { detection: 'write' } })
    ).value;
    const reader = (
      await tokens.createToken({ name: 'reader', permissions: { detection: 'read' } })
    ).value;
    const response = await request('POST', `${ingest.url}/ingest/v1/detection-events`, {
      token: writer,
      json: events,
    });
    expect(response.status).toBe(202);
    await eventually(async () => {
      const found = await request('GET', `${apiUrl}/api-key/v1/detections/${DETECTION}`, {
        token: reader,
      });
      return found.body?.event_count === events.length ? true : undefined;
    });
  });

  afterAll(async () => {
    await browser?.close();
    for (const app of apps.reverse()) await app.stop();
    await tokens?.drain();
    await sql?.close();
  });

  async function signedInPage(): Promise<Page> {
    const { page } = await openPage(browser);
    const response = await signIn(page, webUrl, admin.email, PASSWORD);
    expect(response.status()).toBe(200);
    return page;
  }

  it('signs a user in with email and password, and refuses a wrong password', async () => {
    const { page } = await openPage(browser);
    const refused = await signIn(page, webUrl, admin.email, 'not the password at all');
    expect(refused.status()).toBe(401);
    expect(new URL(page.url()).pathname).toBe('/sign-in');

    const page2 = await signedInPage();
    expect(new URL(page2.url()).pathname).not.toBe('/sign-in');
    await expect(page2.getByText(admin.name).first().isVisible()).resolves.toBe(true);
    await page.close();
    await page2.close();
  });

  it('creates an API key, shows its value once, and the query API accepts it', async () => {
    const page = await signedInPage();
    await page.goto(`${webUrl}/settings/access/api-keys/new`);
    await page.getByLabel('Name').fill(`SIEM export ${run}`);
    await page.getByLabel('Detection', { exact: true }).selectOption('read');
    const created = await navigateBy(page, () =>
      page.getByRole('button', { name: 'Generate Key' }).click(),
    );
    expect(created.status()).toBe(201);
    const value = await page.getByLabel('Key value').inputValue();
    expect(value).toMatch(/^vgk1-/);

    const answer = await request('POST', `${apiUrl}/api-key/v1/detections/${DETECTION}/events`, {
      token: value,
      json: {},
    });
    expect(answer.status).toBe(200);
    expect(answer.body.items).toHaveLength(events.length);

    await navigateBy(page, () => page.reload().then(() => undefined));
    expect(await page.content()).not.toContain(value);
    await page.goto(`${webUrl}/settings/access/api-keys`);
    expect(await page.content()).not.toContain(value);
    await expect(
      page
        .getByRole('row')
        .filter({ hasText: `SIEM export ${run}` })
        .textContent(),
    ).resolves.toContain(`…${value.slice(-4)}`);
    await page.close();
  });

  it('saves the global notification settings', async () => {
    const store = new SqlNotificationSettingsStore(sql);
    await store.saveGlobal({ ...DEFAULT_NOTIFICATION_SETTINGS });
    const page = await signedInPage();
    await page.goto(`${webUrl}/settings/notifications`);
    await page.getByLabel('Send email notifications').check();
    await page.getByLabel('Recipients').fill(`soc-${run}@example.com`);
    await page.getByRole('radio', { name: 'Threshold' }).check();
    await page.getByLabel('Notify when the event count exceeds').fill('20');
    const saved = await navigateBy(page, () =>
      page.getByRole('button', { name: 'Save settings' }).click(),
    );
    expect(saved.status()).toBe(200);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'Notification settings saved.',
    );
    expect(await store.getGlobal()).toEqual({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      emailEnabled: true,
      recipients: [`soc-${run}@example.com`],
      frequency: 'threshold',
      threshold: 20,
    });
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Threshold' }).isChecked()).resolves.toBe(true);
    await page.close();
  });

  it('shows a detection page with its counts and its events newest first', async () => {
    const page = await signedInPage();
    await page.goto(`${webUrl}/u/detections/${DETECTION}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      `Mass download ${run}`,
    );
    const stats = page.getByRole('definition');
    await expect(stats.nth(0).textContent()).resolves.toBe('3');
    await expect(stats.nth(1).textContent()).resolves.toBe('2');
    const shown = await page
      .locator('#events tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => (tr as unknown as { dataset: Record<string, string> }).dataset.eventId),
      );
    expect(shown).toEqual([...events].reverse().map((e) => e.id as string));
    await expect(page.locator('#events tbody tr').first().textContent()).resolves.toContain(
      'downloaded file batch 2',
    );
    await page.close();
  });
});
