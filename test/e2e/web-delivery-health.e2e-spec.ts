import { randomUUID } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import type { Browser, Page } from 'playwright-core';
import type { RunningApp } from '@vigil/config';
import {
  DeliveryService,
  SqlDeliveryStore,
  WebhookProviderService,
  createPgSqlClient,
  createUserService,
  runMigrations,
  type AttemptResult,
  type DeliveryAttempt,
  type NewDelivery,
  type SqlClient,
} from '@vigil/control-plane';
import {
  ElasticsearchReadModelWriter,
  IndexNames,
  createElasticsearchClient,
  ensureReadModels,
} from '@vigil/search';
import { anEventRecord } from '@vigil/contracts';
import { startWeb } from '../../apps/web/src/start-web';
import {
  launchBrowser,
  navigateBy,
  openPage,
  overflowsHorizontally,
  screenshot,
  signIn,
} from '../support/browser';

jest.setTimeout(180_000);

const PASSWORD = 'a long enough password';
const run = randomUUID().slice(0, 8);
const DETECTION = `det-health-${run}`;
const OTHER = `det-other-${run}`;
const MINUTE = 60_000;

type Attempt = Omit<DeliveryAttempt, 'attempt'>;
const failed = (statusCode: number | null, error: string): Attempt => ({
  attemptedAt: new Date(),
  statusCode,
  latencyMs: 40,
  error,
});

describe('web application: a detection’s recent deliveries', () => {
  let web: RunningApp;
  let base: string;
  let sql: SqlClient;
  let es: Client;
  let browser: Browser;
  let store: SqlDeliveryStore;
  let deliveries: DeliveryService;
  const admin = { email: `admin-${randomUUID()}@example.com`, name: 'Ada Admin' };
  const member = { email: `member-${randomUUID()}@example.com`, name: 'Max Member' };

  let providerId: string;
  let goneProviderId: string;
  const filler: NewDelivery[] = [];
  let deadForAdmin: NewDelivery;
  let deadForMember: NewDelivery;
  let retrying: NewDelivery;
  let newest: NewDelivery;
  let otherDetections: NewDelivery;

  function aDelivery(overrides: Partial<NewDelivery> = {}): NewDelivery {
    return {
      id: randomUUID(),
      notificationId: randomUUID(),
      kind: 'detection',
      channel: 'webhook',
      target: providerId,
      subjectId: DETECTION,
      payload: { type: 'detection.updated' },
      ...overrides,
    };
  }

  /** Inserted one at a time, so each is newer than the one before. */
  async function insert(...list: NewDelivery[]): Promise<void> {
    for (const delivery of list) await store.insert(sql, [delivery]);
  }

  /** Claims every due delivery and records one attempt for those in `results`. */
  async function attempt(results: Map<string, [Attempt, AttemptResult]>): Promise<void> {
    const claimed = await store.claimDue(100, 60_000);
    for (const { id } of claimed) {
      const outcome = results.get(id);
      if (outcome) await store.recordAttempt(id, ...outcome);
    }
    await store.release(claimed.filter((c) => !results.has(c.id)).map((c) => c.id));
  }

  beforeAll(async () => {
    web = await startWeb({ ...process.env, WEB_PORT: '0' });
    base = web.url!;
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    await runMigrations(sql);
    const users = createUserService(sql);
    await users.createUser({ ...admin, role: 'admin', password: PASSWORD });
    await users.createUser({ ...member, role: 'member', password: PASSWORD });
    const providers = new WebhookProviderService(sql, {
      policy: { allowPrivate: true, allowlist: [] },
    });
    providerId = (
      await providers.enroll({
        name: 'SOAR playbook',
        kind: 'automation',
        url: 'http://127.0.0.1:9/a',
      })
    ).provider.id;
    goneProviderId = (
      await providers.enroll({ name: 'Old bridge', kind: 'custom', url: 'http://127.0.0.1:9/b' })
    ).provider.id;
    await providers.delete(goneProviderId);

    es = createElasticsearchClient(process.env.ELASTICSEARCH_URL!);
    const names = new IndexNames(process.env.VIGIL_INDEX_PREFIX!);
    await ensureReadModels(es, names);
    await new ElasticsearchReadModelWriter(es, names).indexEvents(
      [
        anEventRecord({ detection_id: DETECTION, detection_name: 'Mass download' }),
        anEventRecord({ detection_id: OTHER, detection_name: 'Impossible travel' }),
      ],
      Date.now(),
    );
    await es.indices.refresh({ index: names.alias('events') });

    // 18 delivered emails, then two dead webhooks, one waiting for its retry, and the newest
    // not attempted yet: 22 about the detection, of which the page shows the 20 newest.
    store = new SqlDeliveryStore(sql);
    deliveries = new DeliveryService(sql);
    for (let i = 0; i < 18; i++) {
      filler.push(aDelivery({ channel: 'email', target: `soc${i}@example.com` }));
    }
    deadForAdmin = aDelivery();
    deadForMember = aDelivery();
    retrying = aDelivery({ target: goneProviderId });
    otherDetections = aDelivery({ subjectId: OTHER });
    await insert(...filler, deadForAdmin, deadForMember, retrying, otherDetections);
    const delivered: [Attempt, AttemptResult] = [
      { attemptedAt: new Date(), statusCode: null, latencyMs: 20, error: null },
      { status: 'delivered' },
    ];
    await attempt(
      new Map([
        ...filler.map((d) => [d.id, delivered] as const),
        [
          deadForAdmin.id,
          [failed(503, 'HTTP 503 Service Unavailable'), { status: 'retry', delayMs: 0 }],
        ],
        [
          deadForMember.id,
          [failed(503, 'HTTP 503 Service Unavailable'), { status: 'retry', delayMs: 0 }],
        ],
        [
          retrying.id,
          [
            failed(null, 'connect ECONNREFUSED 127.0.0.1:9'),
            { status: 'retry', delayMs: 5 * MINUTE },
          ],
        ],
        [otherDetections.id, [failed(500, 'HTTP 500'), { status: 'dead' }]],
      ]),
    );
    await attempt(
      new Map([
        [deadForAdmin.id, [failed(500, 'HTTP 500 Internal Server Error'), { status: 'dead' }]],
        [deadForMember.id, [failed(500, 'HTTP 500 Internal Server Error'), { status: 'dead' }]],
      ]),
    );
    newest = aDelivery({ channel: 'email', target: 'secops@example.com' });
    await insert(newest);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
    await es?.close();
    await sql?.close();
  });

  async function detectionPage(who: { email: string }, width = 1280): Promise<Page> {
    const { page } = await openPage(browser, width);
    await signIn(page, base, who.email, PASSWORD);
    await page.goto(`${base}/u/detections/${DETECTION}`);
    return page;
  }

  const rowOf = (page: Page, id: string) =>
    page.locator(`#deliveries tr[data-delivery-id="${id}"]`);
  const cells = async (page: Page, id: string) =>
    (await rowOf(page, id).locator('td').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());

  it('lists the detection’s 20 newest deliveries with status, target, attempts and the last attempt', async () => {
    const page = await detectionPage(admin);
    await expect(page.locator('#deliveries-heading').textContent()).resolves.toBe(
      'Recent deliveries',
    );
    const shown = await page
      .locator('#deliveries tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => (tr as unknown as { dataset: Record<string, string> }).dataset.deliveryId),
      );
    expect(shown).toEqual([
      newest.id,
      retrying.id,
      deadForMember.id,
      deadForAdmin.id,
      ...filler
        .slice(2)
        .reverse()
        .map((d) => d.id),
    ]);
    expect(shown).not.toContain(otherDetections.id);

    expect(await cells(page, newest.id)).toEqual([
      'Pending Due now',
      'Email secops@example.com',
      '0',
      'No attempt yet',
      '',
    ]);
    const [status, target, count, last] = await cells(page, retrying.id);
    expect(status).toMatch(/^Pending Next attempt \d{1,2} \w{3} \d{4} \d\d:\d\d UTC$/);
    expect(target).toBe(`Webhook Deleted provider ${goneProviderId}`);
    expect(count).toBe('1');
    expect(last).toMatch(
      /^\d{1,2} \w{3} \d{4} \d\d:\d\d UTC No HTTP status connect ECONNREFUSED 127\.0\.0\.1:9$/,
    );
    expect(await cells(page, deadForAdmin.id)).toEqual([
      'Dead',
      'Webhook SOAR playbook',
      '2',
      expect.stringMatching(/UTC HTTP 500 HTTP 500 Internal Server Error$/),
      'Resend',
    ]);
    expect(await cells(page, filler[5].id)).toEqual([
      'Delivered',
      'Email soc5@example.com',
      '1',
      expect.stringMatching(/UTC Sent$/),
      '',
    ]);
    expect(
      await page
        .locator('#deliveries')
        .getByRole('button', { name: /^Resend/ })
        .count(),
    ).toBe(2);
    await page.close();
  });

  it('lets an admin resend a dead delivery: it is pending again, due at once', async () => {
    const page = await detectionPage(admin);
    const response = await navigateBy(page, () =>
      page.getByRole('button', { name: `Resend delivery ${deadForAdmin.id}` }).click(),
    );
    expect(response.status()).toBe(200);
    expect(new URL(page.url()).hash).toBe('#deliveries');
    await expect(page.locator('#deliveries [role="status"]').textContent()).resolves.toContain(
      'Delivery queued again with a fresh retry schedule.',
    );
    expect((await cells(page, deadForAdmin.id))[0]).toMatch(/^Pending/);
    expect(await rowOf(page, deadForAdmin.id).getByRole('button').count()).toBe(0);
    expect((await deliveries.find(deadForAdmin.id))?.status).toBe('pending');
    await screenshot(page, 'detection-deliveries-resent');
    await page.close();
  });

  it('shows a member no Resend button and refuses a direct POST with a valid CSRF token', async () => {
    const page = await detectionPage(member);
    expect((await cells(page, deadForMember.id))[0]).toBe('Dead');
    expect(await page.locator('#deliveries').getByRole('button').count()).toBe(0);
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const post = (detection: string, delivery: string) =>
      page.evaluate(
        `fetch('/u/detections/${detection}/deliveries/${delivery}/resend', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ _csrf: '${csrf}' }),
        }).then((r) => r.status)`,
      );
    expect(await post(DETECTION, deadForMember.id)).toBe(403);
    expect((await deliveries.find(deadForMember.id))?.status).toBe('dead');
    await page.close();
  });

  it('answers 404 to a resend of a delivery about another detection, and 403 without CSRF', async () => {
    const page = await detectionPage(admin);
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const post = (delivery: string, token: string) =>
      page.evaluate(
        `fetch('/u/detections/${DETECTION}/deliveries/${delivery}/resend', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ _csrf: '${token}' }),
        }).then((r) => r.status)`,
      );
    expect(await post(otherDetections.id, csrf)).toBe(404);
    expect(await post('not-a-delivery', csrf)).toBe(404);
    expect(await post(deadForMember.id, 'forged')).toBe(403);
    expect((await deliveries.find(otherDetections.id))?.status).toBe('dead');
    expect((await deliveries.find(deadForMember.id))?.status).toBe('dead');
    await page.close();
  });

  it('says so when no delivery is about the detection yet', async () => {
    const { page } = await openPage(browser);
    await signIn(page, base, member.email, PASSWORD);
    const detection = `det-quiet-${run}`;
    const names = new IndexNames(process.env.VIGIL_INDEX_PREFIX!);
    await new ElasticsearchReadModelWriter(es, names).indexEvents(
      [anEventRecord({ detection_id: detection })],
      Date.now(),
    );
    await es.indices.refresh({ index: names.alias('events') });
    await page.goto(`${base}/u/detections/${detection}`);
    await expect(page.locator('#deliveries').innerText()).resolves.toContain('No deliveries yet');
    await page.close();
  });

  it.each([1280, 800])(
    'lays out the deliveries card without sideways scrolling at %i px',
    async (width) => {
      const page = await detectionPage(admin, width);
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'detection-deliveries');
      await page.close();
    },
  );
});
