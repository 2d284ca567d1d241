import type { Page } from 'playwright-core';
import { anEventRecord, anInvestigationRecord } from '@vigil/contracts';
import { navigateBy, overflowsHorizontally, screenshot } from '../support/browser';
import { indexReadModels } from '../support/index-read-models';
import { startWebHarness, type WebHarness } from '../support/web-harness';

jest.setTimeout(180_000);

const SCRIPT = '<script>alert(1)</script>';
const IMG = '<img src=x onerror=alert(1)>';
const HOSTILE = `${SCRIPT} ${IMG}`;

const report = anInvestigationRecord({
  id: 'inv-report',
  status: 'completed',
  outcome: 'confirmed_risk',
  headline: 'Credential sharing by Ada',
  summary: 'Ada shared a password with a contractor over chat.',
  confidence: 'high',
  recommended_action: 'Reset the password and brief Ada on the policy.',
  risk_score: 8.5,
  findings: [
    {
      title: 'Password shared',
      description: 'Seen in a chat export',
      evidence: ['Message 17 in #contractors', 'Message 18 in #contractors'],
    },
    { title: 'Login from a new country', description: 'Lisbon, 02:14 UTC', evidence: [] },
  ],
  person: {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    role: 'Engineer',
    department: 'R&D',
    manager: 'Charles Babbage',
  },
  detection: { id: 'det-sharing', name: 'Password sharing' },
});
const hostileReport = anInvestigationRecord({
  id: 'inv-hostile',
  headline: `Headline ${HOSTILE}`,
  summary: `Summary ${HOSTILE}`,
  recommended_action: `Action ${HOSTILE}`,
  findings: [{ title: `Finding ${IMG}`, description: `Detail ${SCRIPT}`, evidence: [HOSTILE] }],
  person: {
    name: `Mallory ${IMG}`,
    email: 'mallory@example.com',
    role: SCRIPT,
    department: null,
    manager: null,
  },
  detection: { id: 'det-hostile', name: HOSTILE },
});

describe('web application: investigations and escaping', () => {
  let harness: WebHarness;
  let base: string;

  beforeAll(async () => {
    harness = await startWebHarness();
    base = harness.url;
    await indexReadModels({
      events: [
        anEventRecord({ detection_id: 'det-sharing', detection_name: 'Password sharing' }),
        anEventRecord({
          detection_id: 'det-hostile',
          detection_name: HOSTILE,
          employee_name: `Eve ${IMG}`,
          description: `Event ${SCRIPT}`,
          asset_name: IMG,
        }),
      ],
      investigations: [report, hostileReport],
    });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  function signedIn(width = 1280): Promise<Page> {
    return harness.signedIn(harness.admin, { width });
  }

  it('shows every section of the report and links to the triggering detection', async () => {
    const page = await signedIn();
    await page.goto(`${base}/u/investigations/${report.id}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Credential sharing by Ada',
    );
    // Labels are upper-cased by the stylesheet; compare what is read, not the letter case.
    const text = (await page.locator('main').innerText()).replace(/\s+/g, ' ').toLowerCase();
    for (const expected of [
      'Status Completed',
      'Outcome Confirmed risk',
      'Risk score 8.5',
      'Confidence High',
      'Summary',
      'Ada shared a password with a contractor over chat.',
      'Recommended action',
      'Reset the password and brief Ada on the policy.',
      'Password shared',
      'Seen in a chat export',
      'Message 17 in #contractors',
      'Message 18 in #contractors',
      'Login from a new country',
      'Name Ada Lovelace',
      'Email ada@example.com',
      'Role Engineer',
      'Department R&D',
      'Manager Charles Babbage',
    ]) {
      expect(text).toContain(expected.toLowerCase());
    }
    expect(await page.locator('.finding').count()).toBe(2);
    await screenshot(page, 'investigation');

    await navigateBy(page, () =>
      page.getByRole('region', { name: 'Triggering detection' }).getByRole('link').click(),
    );
    expect(new URL(page.url()).pathname).toBe('/u/detections/det-sharing');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Password sharing',
    );
    await page.close();
  });

  it('answers 404 for an unknown investigation, and sends a visitor who is not signed in to sign in', async () => {
    const page = await signedIn();
    const response = await page.goto(`${base}/u/investigations/inv-nope`);
    expect(response!.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Page not found',
    );
    const { page: anonymous } = await harness.openPage();
    await anonymous.goto(`${base}/u/investigations/${report.id}`);
    expect(new URL(anonymous.url()).pathname).toBe('/sign-in');
    await page.close();
    await anonymous.close();
  });

  it('shows markup in detection names, people and investigation text literally, and runs none of it', async () => {
    const page = await signedIn();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${base}/u/investigations/${hostileReport.id}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      `Headline ${HOSTILE}`,
    );
    const text = await page.locator('main').innerText();
    for (const literal of [
      `Summary ${HOSTILE}`,
      `Action ${HOSTILE}`,
      `Finding ${IMG}`,
      `Detail ${SCRIPT}`,
      `Mallory ${IMG}`,
      HOSTILE,
    ]) {
      expect(text).toContain(literal);
    }
    await expect(page.title()).resolves.toContain(HOSTILE);
    await screenshot(page, 'investigation-hostile');

    await navigateBy(page, () =>
      page.getByRole('region', { name: 'Triggering detection' }).getByRole('link').click(),
    );
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(HOSTILE);
    const detectionText = await page.locator('main').innerText();
    expect(detectionText).toContain(`Eve ${IMG}`);
    expect(detectionText).toContain(`Event ${SCRIPT}`);
    await page.goto(`${base}/u/detections`);
    await expect(page.getByRole('link', { name: HOSTILE }).count()).resolves.toBe(1);
    await screenshot(page, 'detections-hostile');

    // Nothing user-supplied became an element of the page.
    expect(await page.locator('main script, main img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it.each([1280, 800])(
    'lays out the investigation page without sideways scrolling at %i px',
    async (width) => {
      const page = await signedIn(width);
      for (const id of [report.id, hostileReport.id]) {
        await page.goto(`${base}/u/investigations/${id}`);
        expect(await overflowsHorizontally(page)).toBe(false);
        await screenshot(page, `layout-investigation-${id}`);
      }
      await page.close();
    },
  );
});
