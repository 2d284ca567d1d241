import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from '@vigil/config';
import { createPgSqlClient, createUserService, type SqlClient } from '@vigil/control-plane';
import { ASSETS } from '../../apps/web/src/assets/assets';
import { startIndexer } from '../../apps/indexer/src/start-indexer';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { startStreamProcessor } from '../../apps/stream-processor/src/start-stream-processor';
import { startWeb } from '../../apps/web/src/start-web';
import { launchBrowser, openPage, overflowsHorizontally, signIn } from '../support/browser';
import { anEventInput, anInvestigationInput } from '../support/factories';
import { eventually } from '../support/http-client';
import { SmtpSink, type ReceivedEmail } from '../support/smtp-sink';
import { PASSWORD } from '../support/web-harness';
import { WebhookReceiver } from '../support/webhook-receiver';
import { chaosScale } from './support/chaos-scale';
import {
  HOSTILE,
  displayedTextOf,
  injectedMarkupIn,
  recordCspViolations,
  unbrokenWord,
} from './support/hostile-markup';
import { signInOverHttp, type WebSession } from './support/web-session';

jest.setTimeout(chaosScale(150_000, 300_000));

/** Resolves to loopback through /etc/hosts; allowlisted so the notifier may deliver to it. */
const RECEIVER_HOST = 'vm';
const APP_URL = 'https://vigil.example.com';
const run = randomUUID().slice(0, 8);

const DETECTION = `det-xss-${run}`;
/** A detection id is free text too: it ends up in paths, links and emails. */
const HOSTILE_DETECTION = `det-${HOSTILE.img}/${HOSTILE.javascriptUrl}-${run}`;
const INVESTIGATION = `inv-xss-${run}`;
const HOSTILE_INVESTIGATION = `inv-${HOSTILE.svg}-${run}`;

const DETECTION_NAME = `Travel ${HOSTILE.script} ${HOSTILE.template} ${HOSTILE.title} ${run}`;
/** Line breaks in a name that becomes an email subject must not add a header. */
const HEADER_INJECTION_NAME = `Smuggled\r\nBcc: intruder@example.com\r\nX-Injected: yes ${run}`;
const EVE = {
  employee_name: `Eve ${HOSTILE.img} ${HOSTILE.bidi}`,
  employee_email: `o'brien+eve-${run}@example.com`,
};
const MALLORY = {
  employee_name: `Mallory ${HOSTILE.svg} ${HOSTILE.textarea}`,
  employee_email: `mallory-${run}@example.com`,
};
const ISSUE_TYPE = `lateral ${HOSTILE.img}`;
const SOURCE = HOSTILE.javascriptUrl;
const ASSET_NAME = `laptop ${HOSTILE.svg} ${unbrokenWord(400)}`;
const DESCRIPTION =
  `${HOSTILE.javascriptUrl} ${HOSTILE.textarea} ${unbrokenWord(300, 'M')} ${'a long description '.repeat(60)}`.trim();

const PROVIDER_NAME = `SOAR ${HOSTILE.svg}`;
const FAILING_PROVIDER_NAME = `Pager ${HOSTILE.textarea}`.slice(0, 100);
const TOKEN_NAME = `Ingest ${HOSTILE.img}`;
const ADMIN_NAME = `Ada ${HOSTILE.script}`.slice(0, 100);
const MEMBER_NAME = `Mel ${HOSTILE.img} ${HOSTILE.bidi}`.slice(0, 100);
/** Recipients must be addresses, but a dot-atom local part still allows quotes and braces. */
const RECIPIENT = `o'neil+{{7*7}}&x=1-${run}@example.com`;
/** What the failing provider answers: an excerpt of it is shown as the attempt's error. */
const FAILING_RESPONSE = `${HOSTILE.script}${HOSTILE.img}`;

const OUTCOME = `"><svg onload=alert(1)>`;
const INVESTIGATION_TEXT = {
  headline: `${HOSTILE.script} Credential sharing ${HOSTILE.template}`,
  summary: `${HOSTILE.textarea} ${unbrokenWord(600, 'S')}`,
  recommended_action: HOSTILE.javascriptUrl,
  confidence: `<svg onload=alert(1)>`,
  finding: { title: HOSTILE.img, description: HOSTILE.script },
  evidence: [HOSTILE.javascriptUrl, `</li></ul>${HOSTILE.script}`],
  person: {
    name: EVE.employee_name,
    email: `o'brien+inv-${run}@example.com`,
    role: HOSTILE.svg,
    department: HOSTILE.template,
    manager: HOSTILE.bidi.trim(),
  },
};

/** Elements the product's pages are built of; anything else on a page was planted. */
const PAGE_TAGS = [
  'html', 'head', 'meta', 'title', 'link', 'body', 'a', 'div', 'span', 'p', 'dl', 'dt', 'dd',
  'h1', 'h2', 'h3', 'small', 'b', 'strong', 'table', 'caption', 'thead', 'tbody', 'tr', 'th',
  'td', 'ul', 'ol', 'li', 'nav', 'main', 'header', 'aside', 'section', 'form', 'fieldset',
  'legend', 'label', 'input', 'select', 'optgroup', 'option', 'textarea', 'button', 'time', 'svg', 'path',
  'line', 'rect', 'circle',
]; // prettier-ignore
/** Elements of the product's emails. */
const EMAIL_TAGS = [
  'html', 'head', 'meta', 'title', 'body', 'h2', 'p', 'a', 'strong', 'table', 'tbody', 'tr',
  'th', 'td',
]; // prettier-ignore

describe('stored XSS: hostile text through ingest, processor, notifier, emails, webhooks and the web', () => {
  const apps: RunningApp[] = [];
  let web: RunningApp;
  let smtp: SmtpSink;
  let receiver: WebhookReceiver;
  let sql: SqlClient;
  let browser: Browser;
  let admin: WebSession;
  let adminEmail: string;
  const ids = { provider: '', failingProvider: '', token: '', member: '' };

  const webhookPayloads = () =>
    receiver.at('/hook').map((r) => JSON.parse(r.body) as Record<string, any>);
  const detectionWebhook = (detectionId: string) =>
    webhookPayloads().find((p) => p.metadata?.detection_id === detectionId);
  const investigationWebhook = (investigationId: string) =>
    webhookPayloads().find((p) => p.investigation_metadata?.investigation_id === investigationId);
  const emailAbout = (path: string): ReceivedEmail | undefined =>
    smtp.to(RECIPIENT).find((mail) => mail.text?.includes(path));

  async function getPage(path: string): Promise<{ status: number; body: string }> {
    const response = await fetch(web.url + path, {
      redirect: 'manual',
      headers: { cookie: admin.cookie },
    });
    return { status: response.status, body: await response.text() };
  }

  async function post(path: string, fields: Record<string, string | string[]>): Promise<Response> {
    const body = new URLSearchParams({ _csrf: admin.csrf });
    for (const [name, value] of Object.entries(fields)) {
      for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
    }
    return fetch(web.url + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
  }

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    receiver = await WebhookReceiver.start();
    receiver.on('/refuses', (_request, response) => {
      response.writeHead(500, { 'content-type': 'text/html' }).end(FAILING_RESPONSE);
    });
    const env = {
      ...process.env,
      LOG_LEVEL: 'error',
      WEB_PORT: '0',
      INGEST_PORT: '0',
      APP_URL,
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      NOTIFIER_RETRY_SCHEDULE: '200ms',
      NOTIFIER_WEBHOOK_TARGET_ALLOWLIST: RECEIVER_HOST,
      PROCESSOR_TIMER_INTERVAL_MS: '100',
    };
    web = await startWeb(env);
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    adminEmail = `admin-${run}@example.com`;
    await createUserService(sql).createUser({
      email: adminEmail,
      name: ADMIN_NAME,
      role: 'admin',
      password: PASSWORD,
    });
    admin = await signInOverHttp(web.url!, adminEmail, PASSWORD);

    // Everything a person types in Settings, typed as an attacker with a session would.
    const receiverBase = `http://${RECEIVER_HOST}:${new URL(receiver.url('/')).port}`;
    for (const [key, name, path] of [
      ['provider', PROVIDER_NAME, '/hook'],
      ['failingProvider', FAILING_PROVIDER_NAME, '/refuses'],
    ] as const) {
      const enrolled = await post('/settings/integrations', {
        name,
        kind: 'custom',
        url: receiverBase + path,
      });
      expect(enrolled.status).toBe(201);
      ids[key] = /\/settings\/integrations\/([0-9a-f-]{36})/.exec(await enrolled.text())![1];
    }
    const created = await post('/settings/access/api-keys', {
      name: TOKEN_NAME,
      'scope.detection': 'write',
      expires_in_days: '30',
    });
    expect(created.status).toBe(201);
    const token = /vgk1-[0-9A-Za-z]{49}/.exec(await created.text())![0];
    // A member added with a password: an invitation would be emailed to another address.
    const added = await post('/settings/members', {
      name: MEMBER_NAME,
      email: `mel-${run}@example.com`,
      role: 'member',
      access: 'password',
      password: PASSWORD,
    });
    expect(added.status).toBe(303);
    ids.member = /\/settings\/members\/([0-9a-f-]{36})/.exec(added.headers.get('location')!)![1];
    ids.token = (
      await sql.query<{ id: string }>('SELECT id FROM api_tokens WHERE name = $1', [TOKEN_NAME])
    ).rows[0].id;
    const saved = await post('/settings/notifications', {
      email_enabled: 'on',
      recipients: RECIPIENT,
      frequency: 'immediate',
      batch_window_minutes: '60',
      max_events: '5000',
      webhook_enabled: 'on',
      provider: [ids.provider, ids.failingProvider],
    });
    expect(saved.status).toBe(303);

    apps.push(await startIndexer(env));
    apps.push(await startStreamProcessor(env));
    apps.push(await startNotifier(env));
    const ingest = await startIngest(env);
    apps.push(ingest);

    const now = Date.now();
    const events = [EVE, MALLORY, EVE].map((person, i) =>
      anEventInput({
        detection_id: DETECTION,
        detection_name: DETECTION_NAME,
        ...person,
        issue_type: ISSUE_TYPE,
        source: SOURCE,
        asset_name: ASSET_NAME,
        description: DESCRIPTION,
        happened: new Date(now - 60_000 + i * 1000).toISOString(),
      }),
    );
    events.push(
      anEventInput({
        detection_id: HOSTILE_DETECTION,
        detection_name: HEADER_INJECTION_NAME,
        ...MALLORY,
        happened: new Date(now - 30_000).toISOString(),
      }),
    );
    const reports = [INVESTIGATION, HOSTILE_INVESTIGATION].map((id) =>
      anInvestigationInput({
        id,
        outcome: OUTCOME,
        headline: INVESTIGATION_TEXT.headline,
        summary: INVESTIGATION_TEXT.summary,
        recommended_action: INVESTIGATION_TEXT.recommended_action,
        confidence: INVESTIGATION_TEXT.confidence,
        findings: [{ ...INVESTIGATION_TEXT.finding, evidence: INVESTIGATION_TEXT.evidence }],
        person: INVESTIGATION_TEXT.person,
        detection: {
          id: id === INVESTIGATION ? DETECTION : HOSTILE_DETECTION,
          name: DETECTION_NAME,
        },
        updated_at: new Date(now).toISOString(),
      }),
    );
    for (const [path, records] of [
      ['detection-events', events],
      ['investigations', reports],
    ] as const) {
      const response = await fetch(`${ingest.url}/ingest/v1/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(records),
      });
      expect(response.status).toBe(202);
      expect(await response.json()).toMatchObject({ accepted: records.length, rejected: 0 });
    }

    // Wait for every channel: webhooks, emails, the read models, the failed deliveries.
    await eventually(async () => {
      const waiting = Object.entries({
        'detection webhook': detectionWebhook(DETECTION),
        'hostile-id detection webhook': detectionWebhook(HOSTILE_DETECTION),
        'investigation webhook': investigationWebhook(INVESTIGATION),
        'hostile-id investigation webhook': investigationWebhook(HOSTILE_INVESTIGATION),
        'detection email': emailAbout(`/u/detections/${DETECTION}`),
        'hostile-id detection email': emailAbout(
          `/u/detections/${encodeURIComponent(HOSTILE_DETECTION)}`,
        ),
        'investigation email': emailAbout(`/u/investigations/${INVESTIGATION}`),
      }).filter(([, arrived]) => arrived === undefined);
      if (waiting.length > 0) throw new Error(`waiting for ${waiting.map(([w]) => w).join(', ')}`);
      return true;
    });
    await eventually(async () => {
      const detail = await getPage(`/u/detections/${DETECTION}`);
      const investigation = await getPage(`/u/investigations/${INVESTIGATION}`);
      return detail.status === 200 &&
        detail.body.includes('HTTP 500') &&
        investigation.status === 200
        ? true
        : undefined;
    });
    // A custom configuration, made once the detection is known, so its page shows
    // its own settings form (recipients, providers) too.
    const custom = await post(`/u/detections/${DETECTION}/notifications/custom`, {
      use_custom: 'on',
    });
    expect(custom.status).toBe(303);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    for (const app of apps.reverse()) await app.stop();
    await web?.stop();
    await receiver?.stop();
    await smtp?.stop();
    await sql?.close();
  });

  it('carries the hostile text verbatim in the webhook JSON: it is data, escaping is the receiver’s job', () => {
    const detection = detectionWebhook(DETECTION)!;
    expect(detection.notification.title).toBe(`${DETECTION_NAME}: 3 new events`);
    expect(detection.notification.action_url).toBe(`${APP_URL}/u/detections/${DETECTION}`);
    expect([...detection.metadata.affected_users].sort()).toEqual(
      [EVE.employee_email, MALLORY.employee_email].sort(),
    );
    const summaries = detection.metadata.events as { person_name: string; description: string }[];
    expect(summaries.map((e) => [e.person_name, e.description])).toEqual([
      [EVE.employee_name, DESCRIPTION],
      [MALLORY.employee_name, DESCRIPTION],
      [EVE.employee_name, DESCRIPTION],
    ]);

    const smuggled = detectionWebhook(HOSTILE_DETECTION)!;
    expect(smuggled.metadata.detection_id).toBe(HOSTILE_DETECTION);
    // SPEC §6.2 gives the title's form `{detection}: {N} new events` for every N.
    expect(smuggled.notification.title).toBe(`${HEADER_INJECTION_NAME}: 1 new events`);
    expect(smuggled.notification.action_url).toBe(
      `${APP_URL}/u/detections/${encodeURIComponent(HOSTILE_DETECTION)}`,
    );

    for (const id of [INVESTIGATION, HOSTILE_INVESTIGATION]) {
      const payload = investigationWebhook(id)!;
      expect(payload.notification.title).toBe(
        `Investigation Update: ${INVESTIGATION_TEXT.headline}`,
      );
      expect(payload.notification.action_url).toBe(
        `${APP_URL}/u/investigations/${encodeURIComponent(id)}`,
      );
      expect(payload.investigation_metadata).toEqual({
        investigation_id: id,
        status: 'completed',
        outcome: OUTCOME,
        headline: INVESTIGATION_TEXT.headline,
        person_name: INVESTIGATION_TEXT.person.name,
        person_email: INVESTIGATION_TEXT.person.email,
        detection_name: DETECTION_NAME,
      });
    }
    expect(receiver.at('/refuses').length).toBeGreaterThan(0);
  });

  describe('in the browser', () => {
    let context: BrowserContext;
    let page: Page;
    const dialogs: string[] = [];
    const responsesWithoutCsp: string[] = [];
    let responsesChecked = 0;

    beforeAll(async () => {
      ({ context, page } = await openPage(browser));
      await recordCspViolations(context);
      page.on('dialog', (dialog) => {
        dialogs.push(`${dialog.type()}: ${dialog.message()}`);
        void dialog.dismiss();
      });
      page.on('response', (response) => {
        if (!response.url().startsWith(web.url!)) return;
        responsesChecked += 1;
        const csp = response.headers()['content-security-policy'] ?? '';
        if (!/script-src 'self'/.test(csp) || /unsafe-inline|unsafe-eval/.test(csp)) {
          responsesWithoutCsp.push(`${response.status()} ${response.url()}: ${csp}`);
        }
      });
      await signIn(page, web.url!, adminEmail, PASSWORD);
    });

    afterAll(async () => {
      await context?.close();
    });

    /** Visits `path` and checks nothing planted is live and every text in `shown` reads literally. */
    async function expectInert(
      path: string,
      shown: readonly string[],
      status = 200,
    ): Promise<void> {
      const response = await page.goto(web.url + path);
      expect([path, response?.status()]).toEqual([path, status]);
      const injected = await injectedMarkupIn(page, [ASSETS.script.path], PAGE_TAGS);
      expect({ path, ...injected }).toEqual({
        path,
        xss: undefined,
        cspViolations: [],
        foreignElements: [],
        handlerAttributes: [],
        scripts: [],
        scriptUrls: [],
      });
      const text = await displayedTextOf(page);
      const missing = shown.filter((s) => !text.includes(s));
      expect({ path, missing }).toEqual({ path, missing: [] });
    }

    it('shows every hostile field of a detection literally and runs none of it', async () => {
      await expectInert('/u/detections', [
        DETECTION_NAME,
        HEADER_INJECTION_NAME.replace(/\r/g, ''),
      ]);
      await expectInert(`/u/detections/${DETECTION}`, [
        DETECTION_NAME,
        EVE.employee_name,
        EVE.employee_email,
        MALLORY.employee_name,
        MALLORY.employee_email,
        ISSUE_TYPE,
        SOURCE,
        ASSET_NAME,
        DESCRIPTION,
        PROVIDER_NAME,
        FAILING_PROVIDER_NAME,
        RECIPIENT,
        FAILING_RESPONSE,
        ADMIN_NAME,
      ]);
      await expectInert(`/u/detections/${encodeURIComponent(HOSTILE_DETECTION)}`, [
        HOSTILE_DETECTION,
        MALLORY.employee_name,
      ]);
      // The filter reflects what was typed, literally too: a query that matches, and one refused.
      const matching = `source = '${SOURCE}'`;
      await expectInert(`/u/detections/${DETECTION}?q=${encodeURIComponent(matching)}`, [
        matching,
        ASSET_NAME,
      ]);
      const refused = `source = '${HOSTILE.img}' AND ${HOSTILE.script}`;
      const refusedPath = `/u/detections/${DETECTION}?q=${encodeURIComponent(refused)}`;
      await expectInert(refusedPath, [refused], 400);
    });

    it('shows every hostile field of an investigation literally and runs none of it', async () => {
      const { person, finding } = INVESTIGATION_TEXT;
      for (const id of [INVESTIGATION, HOSTILE_INVESTIGATION]) {
        await expectInert(`/u/investigations/${encodeURIComponent(id)}`, [
          id,
          INVESTIGATION_TEXT.headline,
          INVESTIGATION_TEXT.summary,
          INVESTIGATION_TEXT.recommended_action,
          INVESTIGATION_TEXT.confidence,
          OUTCOME,
          finding.title,
          finding.description,
          ...INVESTIGATION_TEXT.evidence,
          `Investigation of ${person.name}`,
          person.email,
          person.role,
          person.department,
          person.manager,
          DETECTION_NAME,
        ]);
      }
    });

    it('shows hostile settings (provider names, recipients, token name, user name) literally', async () => {
      await expectInert('/settings/notifications', [
        PROVIDER_NAME,
        FAILING_PROVIDER_NAME,
        RECIPIENT,
      ]);
      await expectInert('/settings/integrations', [PROVIDER_NAME, FAILING_PROVIDER_NAME]);
      for (const id of [ids.provider, ids.failingProvider]) {
        await expectInert(`/settings/integrations/${id}`, []);
        await expectInert(`/settings/integrations/${id}/delete`, []);
        await expectInert(`/settings/integrations/${id}/rotate`, []);
      }
      await expectInert(`/settings/integrations/${ids.failingProvider}`, [
        FAILING_PROVIDER_NAME,
        FAILING_RESPONSE,
      ]);
      await expectInert('/settings/access/api-keys', [TOKEN_NAME]);
      await expectInert(`/settings/access/api-keys/${ids.token}/delete`, [TOKEN_NAME]);
      await expectInert('/settings/access/account', [ADMIN_NAME]);
      await expectInert('/settings/members', [ADMIN_NAME, MEMBER_NAME]);
      await expectInert(`/settings/members/${ids.member}`, [MEMBER_NAME]);
      await expectInert(`/settings/members/${ids.member}/delete`, [MEMBER_NAME]);
      // The audit log shows what was typed in the details of each change.
      await expectInert('/settings/audit-log', [TOKEN_NAME, PROVIDER_NAME]);
    });

    it('renders the detection page sanely with hostile data: long strings wrap, no sideways scroll', async () => {
      await page.goto(`${web.url}/u/detections/${DETECTION}`);
      expect(await overflowsHorizontally(page)).toBe(false);
      const dir = process.env.VIGIL_SCREENSHOT_DIR;
      if (dir) await page.screenshot({ path: `${dir}/stored-xss-detection.png`, fullPage: true });
    });

    it('no dialog opened and every response carried the CSP', () => {
      expect(dialogs).toEqual([]);
      expect(responsesChecked).toBeGreaterThan(20);
      expect(responsesWithoutCsp).toEqual([]);
    });
  });

  it('escapes the hostile text in every email’s HTML part, adds no header, links only to the app', async () => {
    const mails = [
      emailAbout(`/u/detections/${DETECTION}`)!,
      emailAbout(`/u/detections/${encodeURIComponent(HOSTILE_DETECTION)}`)!,
      emailAbout(`/u/investigations/${INVESTIGATION}`)!,
    ];
    expect(smtp.to('intruder@example.com')).toEqual([]);
    for (const mail of smtp.received) expect(mail.envelopeTo).toEqual([RECIPIENT]);
    expect(mails[1].subject).not.toMatch(/[\r\n]/);

    // Parsed by a browser, as a webmail would, with scripts allowed so a planted one would run.
    const { context, page } = await openPage(browser);
    // The check itself sees planted markup, so its silence below means something.
    const control = await context.newPage();
    await control.setContent(
      `<p>${HOSTILE.img}${HOSTILE.svg}<a href="${HOSTILE.javascriptUrl}">x</a></p>`,
    );
    const planted = await injectedMarkupIn(control, [], EMAIL_TAGS);
    expect(planted.foreignElements.length).toBeGreaterThan(0);
    expect(planted.handlerAttributes.length).toBeGreaterThan(0);
    expect(planted.scriptUrls.length).toBeGreaterThan(0);
    await control.close();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    try {
      const expected: string[][] = [
        [DETECTION_NAME, EVE.employee_name, MALLORY.employee_name, DESCRIPTION, EVE.employee_email],
        [MALLORY.employee_name],
        [INVESTIGATION_TEXT.headline, INVESTIGATION_TEXT.person.name],
      ];
      for (const [i, mail] of mails.entries()) {
        expect(mail.html).toBeDefined();
        await page.setContent(mail.html!);
        const injected = await injectedMarkupIn(page, [], EMAIL_TAGS);
        expect({ subject: mail.subject, ...injected }).toEqual({
          subject: mail.subject,
          xss: undefined,
          // A mail client applies no CSP: only the markup itself counts.
          cspViolations: null,
          foreignElements: [],
          handlerAttributes: [],
          scripts: [],
          scriptUrls: [],
        });
        const hrefs = await page.evaluate<string[]>(
          `Array.from(document.querySelectorAll('a')).map((a) => a.getAttribute('href'))`,
        );
        expect(hrefs.length).toBeGreaterThan(0);
        for (const href of hrefs) expect(href.startsWith(`${APP_URL}/u/`)).toBe(true);
        const text = await displayedTextOf(page);
        expect(expected[i].filter((s) => !text.includes(s))).toEqual([]);
      }
      expect(dialogs).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
