import { createPgSqlClient, runMigrations, type SqlClient } from '@vigil/control-plane';
import type { Browser } from 'playwright-core';
import { DEMO_RECIPIENTS } from '../../apps/all-in-one/src/demo/prepare-demo';
import { runDemo, type DemoRun } from '../../apps/all-in-one/src/demo/run-demo';
import type { ReceivedWebhook } from '../../apps/all-in-one/src/demo-inbox/webhook-inbox';
import { startAllInOne, type RunningAllInOne } from '../../apps/all-in-one/src/start-all-in-one';
import { launchBrowser, openPage, overflowsHorizontally, screenshot } from '../support/browser';
import { eventually } from '../support/http-client';

jest.setTimeout(180_000);

/**
 * The newcomer's path: the all-in-one process on the real servers, `npm run demo` against it,
 * and within a minute webhooks of every frequency mode at the built-in receiver and emails at
 * the built-in mail catcher, both readable on their pages.
 */
describe('all-in-one with the demo', () => {
  let app: RunningAllInOne;
  let sql: SqlClient;
  let browser: Browser;
  let demo: DemoRun;
  let fedAt: number;

  beforeAll(async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      API_PORT: '0',
      INGEST_PORT: '0',
      WEB_PORT: '0',
      DEMO_INBOX_PORT: '0',
      DEMO_SMTP_PORT: '0',
      NOTIFIER_DIGEST_GRACE_MS: '1000',
      LOG_LEVEL: 'warn',
    };
    // The catcher is the mail server here, as after `npm start` with no SMTP configured.
    delete env.SMTP_HOST;
    delete env.SMTP_PORT;
    delete env.NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS;
    delete env.NOTIFIER_WEBHOOK_TARGET_ALLOWLIST;
    app = await startAllInOne(env);
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    await runMigrations(sql);
    browser = await launchBrowser();
    demo = await runDemo({
      sql,
      ingestUrl: app.urls.ingest,
      inboxUrl: app.urls.inbox,
      webUrl: app.urls.web,
      // What demo-main derives from the same variables: the receiver's address and port only.
      policy: { allowPrivate: false, allowlist: [app.inbox.endpoint] },
      seed: 20260302,
      pauseMs: 1_500,
    });
    fedAt = Date.now();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await sql?.close();
  });

  const detectionIdOf = (w: ReceivedWebhook) =>
    (JSON.parse(w.body) as { metadata?: { detection_id?: string } }).metadata?.detection_id;
  const investigationIdOf = (w: ReceivedWebhook) =>
    (JSON.parse(w.body) as { investigation_metadata?: { investigation_id?: string } })
      .investigation_metadata?.investigation_id;

  it('delivers signed webhooks for every detection of every mode and both investigations within a minute', async () => {
    const wanted = demo.scenario.detections.map((d) => d.id);
    const investigations = demo.scenario.investigations.map((i) => i.id);
    const received = await eventually(
      async () => {
        const all = app.inbox.webhooks.list();
        const detections = new Set(all.map(detectionIdOf));
        const reports = new Set(all.map(investigationIdOf));
        const complete =
          wanted.every((id) => detections.has(id)) && investigations.every((id) => reports.has(id));
        return complete ? all : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    expect(Date.now() - fedAt).toBeLessThan(60_000);
    expect(received.every((w) => w.signature === 'valid')).toBe(true);
    // Immediate detections notify on both waves; Threshold ones once, after crossing.
    for (const detection of demo.scenario.detections) {
      const count = received.filter((w) => detectionIdOf(w) === detection.id).length;
      if (detection.frequency === 'threshold') expect(count).toBe(1);
      else expect(count).toBeGreaterThanOrEqual(2);
    }
  });

  it('emails each Immediate and Threshold detection at once, and the Batch ones in a digest', async () => {
    const names = demo.scenario.detections
      .filter((d) => d.frequency !== 'batch')
      .map((d) => d.name);
    await eventually(
      async () => {
        const subjects = app.inbox.mail.list().map((m) => m.subject);
        return names.every((name) => subjects.some((s) => s.startsWith(`${name}:`)))
          ? subjects
          : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    // The digest closes at the end of the one-minute window (aligned to the clock) plus the
    // grace period, so it may come up to a minute and a grace after the events.
    const batchNames = demo.scenario.detections
      .filter((d) => d.frequency === 'batch')
      .map((d) => d.name);
    const digests = await eventually(
      async () => {
        const found = app.inbox.mail.list().filter((m) => m.subject.startsWith('Vigil digest:'));
        const covered = batchNames.every((name) =>
          found.some((m) => (m.text ?? '').includes(name)),
        );
        return covered ? found : undefined;
      },
      { timeoutMs: 75_000, intervalMs: 500 },
    );
    for (const digest of digests) expect(digest.envelopeTo).toEqual(DEMO_RECIPIENTS);
  });

  it('shows the received webhooks and emails on the inbox pages', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${app.urls.inbox}/webhooks`);
    await expect(page.getByRole('heading', { name: 'Webhooks' }).count()).resolves.toBe(1);
    await expect(page.getByText('signature valid').count()).resolves.toBeGreaterThan(3);
    expect(await overflowsHorizontally(page)).toBe(false);
    await screenshot(page, 'demo-webhooks');

    await page.goto(`${app.urls.inbox}/mail`);
    const first = page.getByRole('link', { name: /new events/ }).first();
    await expect(first.count()).resolves.toBe(1);
    expect(await overflowsHorizontally(page)).toBe(false);
    await screenshot(page, 'demo-mail');

    await first.click();
    await page.waitForLoadState('domcontentloaded');
    const frame = page.frameLocator('iframe[title="HTML part of the email"]');
    await frame
      .getByText(/new events/)
      .first()
      .waitFor();
    expect(await overflowsHorizontally(page)).toBe(false);
    await screenshot(page, 'demo-mail-message');
    await context.close();
  });
});
