import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildDemoScenario } from '../../apps/all-in-one/src/demo/sample-data';
import {
  demoKeyFile,
  startAllInOne,
  type RunningAllInOne,
} from '../../apps/all-in-one/src/start-all-in-one';
import { launchBrowser, navigateBy, openPage, signIn } from '../support/browser';
import { eventually } from '../support/http-client';

jest.setTimeout(300_000);

const ADMIN = { email: 'admin@vigil.local', password: 'a long enough password' };

/** `npm start` as a newcomer runs it: no servers, a data folder of its own. */
function embeddedEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    VIGIL_DATA_DIR: dataDir,
    API_PORT: '0',
    INGEST_PORT: '0',
    WEB_PORT: '0',
    DEMO_INBOX_PORT: '0',
    DEMO_SMTP_PORT: '0',
    NOTIFIER_DIGEST_GRACE_MS: '1000',
    VIGIL_ADMIN_EMAIL: ADMIN.email,
    VIGIL_ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
  };
  for (const name of [
    'KAFKA_BROKERS',
    'SCHEMA_REGISTRY_URL',
    'ELASTICSEARCH_URL',
    'DATABASE_URL',
    'SMTP_HOST',
    'SMTP_PORT',
    'NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS',
    'NOTIFIER_WEBHOOK_TARGET_ALLOWLIST',
  ]) {
    delete env[name];
  }
  return env;
}

/**
 * `npm run demo`, twice, against one embedded instance (what a newcomer does when the first
 * run went by too fast): the second run tops the same detections up instead of copying them,
 * and each demo investigation is about a person its detection's events name.
 */
describe('npm run demo, run twice on the embedded mode', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-demo-twice-'));
  const scenario = buildDemoScenario(1, new Date());
  let app: RunningAllInOne;
  let browser: Browser;
  let page: Page;

  /** What `npm run demo` does: ask the running process to feed the samples. */
  async function runDemo(): Promise<string> {
    const response = await fetch(`${app.urls.inbox}/demo`, {
      method: 'POST',
      headers: { 'x-vigil-demo-key': readFileSync(demoKeyFile(dataDir), 'utf8') },
    });
    const text = await response.text();
    expect(response.status).toBe(200);
    return text;
  }

  async function detectionRows(): Promise<string[]> {
    await page.goto(`${app.urls.web}/u/detections`);
    return page
      .locator('tr[data-detection-id]')
      .evaluateAll((trs) =>
        trs.map(
          (tr) => (tr as unknown as { dataset: { detectionId: string } }).dataset.detectionId,
        ),
      );
  }

  /** The detections once every event sent so far is counted on the list. */
  async function detectionsCounting(events: number): Promise<string[]> {
    return eventually(
      async () => {
        const ids = await detectionRows();
        const counts = await page
          .locator('tr[data-detection-id] td.num:nth-child(2)')
          .allTextContents();
        const total = counts.reduce((sum, text) => sum + Number(text.replace(/,/g, '')), 0);
        return total === events ? ids : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 1_000 },
    );
  }

  beforeAll(async () => {
    app = await startAllInOne(embeddedEnv(dataDir));
    browser = await launchBrowser();
    ({ page } = await openPage(browser));
    await signIn(page, app.urls.web, ADMIN.email, ADMIN.password);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('adds new events to the same detections the second time, and no copy of any', async () => {
    const eventsPerRun = scenario.waves.flat().length;
    await runDemo();
    const first = await detectionsCounting(eventsPerRun);
    expect([...first].sort()).toEqual(scenario.detections.map((d) => d.id).sort());

    const second = await runDemo();
    expect(second).toContain('sample data sent');
    const after = await detectionsCounting(2 * eventsPerRun);
    expect([...after].sort()).toEqual([...first].sort());
  });

  it('shows what would be sent now about a demo detection, from the state the processor recorded', async () => {
    const [immediate] = scenario.detections.filter((d) => d.frequency === 'immediate');
    await eventually(
      async () => {
        await page.goto(`${app.urls.web}/u/detections/${immediate.id}/dry-run`);
        return (await page.locator('.dry-run-basis').count()) === 1 || undefined;
      },
      { timeoutMs: 30_000, intervalMs: 1_000 },
    );
    // Both runs' events were notified at once: nothing is left to send.
    await expect(page.locator('#dry-run-webhook .card-header').textContent()).resolves.toContain(
      'The event count has not risen since the last notification',
    );
  });

  it('investigates a person whom the investigation’s detection names among its affected users', async () => {
    for (const { id } of scenario.investigations) {
      await page.goto(`${app.urls.web}/u/investigations/${id}`);
      const description = await page.locator('.page-header p').first().textContent();
      const person = /^Investigation of (.+)$/.exec(description!.trim())![1];
      const detectionLink = page.locator('.breadcrumb a').last();
      await navigateBy(page, () => detectionLink.click());
      expect(new URL(page.url()).pathname).toMatch(/^\/u\/detections\//);
      const users = await page.locator('#users .cell-person').allTextContents();
      expect(users.some((user) => user.startsWith(person))).toBe(true);
    }
  });
});
