/**
 * The page gallery: every page of the web application in its interesting states, as a
 * full-page screenshot at 1280 and 800 px and a normalised text dump (visible text, form
 * controls with their labels, links, ARIA attributes, the accessibility tree and the DOM).
 * Two galleries of the same code match dump for dump, so one taken before a change to the
 * pages and one after it show what the change did to them.
 *
 *   npx ts-node --swc -r tsconfig-paths/register test/support/page-gallery.ts /tmp/gallery
 *
 * It needs the real PostgreSQL and Elasticsearch (not Kafka), and makes and removes its own
 * database and index prefix. It is not a test: CI does not run it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { Client } from 'pg';
import type { Browser, Locator, Page } from 'playwright-core';
import type { RunningApp } from '@vigil/config';
import {
  SqlDeliveryStore,
  WebhookProviderService,
  createPgSqlClient,
  createUserService,
  type AttemptResult,
  type DeliveryAttempt,
  type NewDelivery,
  type SqlClient,
} from '@vigil/control-plane';
import { anEventRecord, anInvestigationRecord, type DetectionEventRecord } from '@vigil/contracts';
import { startWeb } from '../../apps/web/src/start-web';
import { launchBrowser, navigateBy, openPage, signIn } from './browser';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import { detectionStateOf, indexReadModels } from './index-read-models';
import { adminDatabaseUrl, databaseUrlFor, newRunId, serverDefaults } from './test-environment';

const WIDTHS = [1280, 800] as const;
const PASSWORD = 'a long enough password';
const ADMIN = { email: 'ada.admin@example.com', name: 'Ada Admin' };
const MEMBER = { email: 'max.member@example.com', name: 'Max Member' };
const T0 = Date.UTC(2025, 4, 1, 8, 0, 0, 0);
const MINUTE = 60_000;
const BUSY = 'det-busy';
const QUIET = 'det-quiet-00';

const MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';
const LONG_MONTHS =
  'January|February|March|April|May|June|July|August|September|October|November|December';

const NEAR_NOW_MS = 400 * 24 * 60 * MINUTE;

/** A date of the run's own making (a creation, an expiry, a snooze), not one of the seeded data. */
function nearNow(text: string, label: string): string {
  const at = Date.parse(text.replace(',', ''));
  return Number.isNaN(at) || Math.abs(at - Date.now()) > NEAR_NOW_MS ? text : label;
}

/** What changes from run to run (ids, secrets, recent dates, durations, asset hashes) made constant. */
export function normalise(text: string): string {
  return (
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
      .replace(/vgk1-[A-Za-z0-9]+/g, '<token>')
      .replace(/whsec_[A-Za-z0-9+/=_-]+/g, '<secret>')
      .replace(
        /\/(invitation|reset-password)\/[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
        '/$1/<link-token>',
      )
      .replace(/…[A-Za-z0-9]{4}\b/g, '…<last4>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, (iso) => nearNow(iso, '<iso>'))
      .replace(new RegExp(`\\b\\d{1,2} (${LONG_MONTHS}|${MONTHS}) \\d{4}\\b`, 'g'), (day) =>
        nearNow(`${day} 12:00 UTC`, '<date>'),
      )
      // The time after a recent date, also where markup stands between them (table dates).
      .replace(/<date>(\D{0,80}?)\d{2}:\d{2} UTC\b/g, '<date>$1<hh:mm> UTC')
      .replace(/((\d+ (d|h|min) ?)+|less than 1 min) left/g, '<duration> left')
      .replace(/\/assets\/([a-z]+)\.[0-9a-f]{12}\./g, '/assets/$1.<hash>.')
  );
}

/**
 * Runs in the page (as a string: this project has no DOM types). Lists the visible text, every
 * form control with its label and state, every link and form, every element carrying a role,
 * an aria-* attribute or a tabindex, and which element has the focus.
 */
const DUMP_PAGE = `(() => {
  const squash = (s) => (s || '').replace(/\\s+/g, ' ').trim();
  const describe = (el) =>
    el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.getAttribute('class') ? '.' + el.getAttribute('class').trim().split(/\\s+/).join('.') : '');
  const attrs = (el, names) =>
    names.filter((n) => el.hasAttribute(n)).map((n) => n + '=' + JSON.stringify(el.getAttribute(n)));
  const out = ['# title', document.title, '# text'];
  out.push(...document.body.innerText.split('\\n').map(squash).filter(Boolean));
  out.push('# controls');
  for (const el of document.querySelectorAll('input, select, textarea, button')) {
    const labels = el.labels ? [...el.labels].map((l) => squash(l.innerText)).join(' | ') : '';
    const secret = el.getAttribute('name') === '_csrf';
    const state = [];
    if (el.type === 'checkbox' || el.type === 'radio') state.push(el.checked ? 'checked' : 'unchecked');
    if (el.tagName === 'SELECT') state.push('value=' + JSON.stringify(el.value));
    if (el.tagName === 'TEXTAREA') state.push('value=' + JSON.stringify(el.value));
    if (el.disabled) state.push('disabled');
    if (el.hidden) state.push('hidden');
    out.push([describe(el), 'label=' + JSON.stringify(labels),
      ...attrs(el, ['type', 'name', 'placeholder', 'autocomplete', 'inputmode', 'maxlength',
        'required', 'readonly', 'autofocus', 'formnovalidate', 'rows', 'spellcheck']),
      secret ? 'value=<csrf>' : attrs(el, ['value']).join(' '),
      'text=' + JSON.stringify(squash(el.innerText)), ...state].join(' '));
    if (el.tagName === 'SELECT') {
      for (const o of el.options) out.push('  option ' + JSON.stringify(o.value) + ' ' + JSON.stringify(squash(o.text)) + (o.selected ? ' selected' : ''));
    }
  }
  out.push('# links');
  for (const a of document.querySelectorAll('a')) {
    out.push([JSON.stringify(squash(a.innerText)), a.getAttribute('href'), ...attrs(a, ['rel', 'class'])].join(' '));
  }
  out.push('# forms');
  for (const f of document.querySelectorAll('form')) {
    out.push([describe(f), ...attrs(f, ['method', 'action', 'novalidate'])].join(' '));
  }
  out.push('# aria');
  for (const el of document.querySelectorAll('*')) {
    const names = [...el.attributes].map((a) => a.name)
      .filter((n) => n === 'role' || n === 'tabindex' || n.startsWith('aria-')).sort();
    if (names.length > 0) out.push([describe(el), ...attrs(el, names)].join(' '));
  }
  out.push('# focus');
  out.push(document.activeElement ? describe(document.activeElement) : '(none)');
  return out.join('\\n');
})()`;

/**
 * The document as a tree of tags, sorted attributes and whitespace-folded text: stricter than
 * the dump, it shows any change of markup.
 */
const DUMP_DOM = `(() => {
  const lines = [];
  const walk = (node, depth) => {
    const pad = '  '.repeat(depth);
    if (node.nodeType === 3) {
      const text = node.nodeValue.replace(/\\s+/g, ' ');
      if (text.trim() !== '') lines.push(pad + JSON.stringify(text));
      return;
    }
    if (node.nodeType !== 1) return;
    const attrs = [...node.attributes].map((a) =>
      a.name + '=' + JSON.stringify(a.name === 'value' && node.getAttribute('name') === '_csrf' ? '<csrf>' : a.value.replace(/\\s+/g, ' ').trim()));
    attrs.sort();
    lines.push(pad + '<' + node.tagName.toLowerCase() + (attrs.length ? ' ' + attrs.join(' ') : '') + '>');
    for (const child of node.childNodes) walk(child, depth + 1);
  };
  walk(document.documentElement, 0);
  return lines.join('\\n');
})()`;

class Gallery {
  private readonly index: string[] = [];

  constructor(private readonly dir: string) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }

  /** Saves the page as it is now under `name`, with the HTTP status it arrived with. */
  async capture(page: Page, name: string, status?: number): Promise<void> {
    const dumps: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(this.dir, `${name}-${width}.png`), fullPage: true });
      dumps.push(await page.evaluate<string>(DUMP_PAGE));
    }
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
    const [wide, narrow] = dumps;
    const aria = await page.locator('body').ariaSnapshot();
    const dom = await page.evaluate<string>(DUMP_DOM);
    const path = new URL(page.url()).pathname + new URL(page.url()).search;
    const text = [
      `# page ${name}`,
      `# url ${path}`,
      `# status ${status ?? '(not a navigation)'}`,
      wide,
      ...(narrow === wide ? [] : ['# text at 800 px differs', narrow]),
      '# accessibility tree',
      aria,
    ].join('\n');
    writeFileSync(join(this.dir, `${name}.txt`), `${normalise(text)}\n`);
    writeFileSync(join(this.dir, `${name}.dom.txt`), `${normalise(dom)}\n`);
    this.index.push(`${name} ${status ?? '-'} ${normalise(path)}`);
    process.stdout.write(`  ${name}\n`);
  }

  finish(): void {
    writeFileSync(join(this.dir, 'index.txt'), `${this.index.join('\n')}\n`);
  }
}

/** Goes to `path` and returns the status the document arrived with. */
async function visit(page: Page, base: string, path: string): Promise<number> {
  const response = await page.goto(`${base}${path}`);
  return response?.status() ?? 0;
}

async function submit(page: Page, action: () => Promise<void>): Promise<number> {
  return (await navigateBy(page, action)).status();
}

const button = (page: Page, name: string | RegExp) =>
  page.getByRole('button', { name, exact: typeof name === 'string' }).first();
const link = (page: Page, name: string | RegExp) =>
  page.getByRole('link', { name, exact: typeof name === 'string' }).first();

/** Clicks `target` (a button or link that leads to a page) and captures that page as `name`. */
async function captureClick(gallery: Gallery, page: Page, name: string, target: Locator) {
  await gallery.capture(page, name, await submit(page, () => target.click()));
}

/** Goes to `path` and captures it as `name`. */
async function captureVisit(
  gallery: Gallery,
  page: Page,
  base: string,
  name: string,
  path: string,
) {
  await gallery.capture(page, name, await visit(page, base, path));
}

type Attempt = Omit<DeliveryAttempt, 'attempt'>;

/** Plays the notifier's part for hand-made deliveries: one attempt each, with its outcome. */
async function deliverOnce(
  sql: SqlClient,
  deliveries: readonly NewDelivery[],
  outcomes: ReadonlyMap<string, [Attempt, AttemptResult]>,
): Promise<void> {
  const store = new SqlDeliveryStore(sql);
  // One at a time, so each is newer than the one before.
  for (const delivery of deliveries) await store.insert(sql, [delivery]);
  const claimed = await store.claimDue(100, 60_000);
  for (const { id } of claimed) {
    const outcome = outcomes.get(id);
    if (outcome) await store.recordAttempt(id, ...outcome);
  }
  await store.release(claimed.filter((c) => !outcomes.has(c.id)).map((c) => c.id));
}

/** 30 events of one busy detection by 12 people, then 27 quiet detections of one event each. */
function seedEvents(): DetectionEventRecord[] {
  const nth = (i: number) => String(i).padStart(2, '0');
  return [
    ...Array.from({ length: 30 }, (_, i) =>
      anEventRecord({
        id: `evt-busy-${nth(i)}`,
        detection_id: BUSY,
        detection_name: 'Bulk export',
        employee_email: `analyst${i % 12}@example.com`,
        employee_name: `Analyst ${i % 12}`,
        happened: T0 + (24 * 60 + i) * MINUTE,
        risk_score: (i * 3) % 10,
        high_prevalence: i % 7 === 0,
        allowlisted: i % 11 === 0,
        description: `exported report ${i}`,
      }),
    ),
    ...Array.from({ length: 27 }, (_, i) =>
      anEventRecord({
        id: `evt-quiet-${nth(i)}`,
        detection_id: `det-quiet-${nth(i)}`,
        detection_name: `Quiet detection ${i}`,
        happened: T0 + i * MINUTE,
      }),
    ),
  ];
}

async function anonymousPages(gallery: Gallery, browser: Browser, base: string): Promise<void> {
  const { page, context } = await openPage(browser);
  await captureVisit(gallery, page, base, 'sign-in', '/sign-in');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill('not the password');
  await captureClick(gallery, page, 'sign-in-error', button(page, 'Sign in'));
  await captureVisit(gallery, page, base, 'sign-in-signed-out', '/sign-in?signed_out=1');
  await captureVisit(gallery, page, base, 'not-found-anonymous', '/no-such-page');
  await visit(page, base, '/sign-in');
  await page.evaluate('document.querySelector(\'input[name="_csrf"]\').remove()');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await captureClick(gallery, page, 'csrf-refused', button(page, 'Sign in'));
  await context.close();
}

async function apiKeyPages(gallery: Gallery, page: Page, base: string): Promise<void> {
  const keys = '/settings/access/api-keys';
  await captureVisit(gallery, page, base, 'api-keys-empty', keys);
  await captureVisit(gallery, page, base, 'api-key-new', `${keys}/new`);
  await button(page, 'Read-only').click();
  await gallery.capture(page, 'api-key-new-preset-read');
  // Past the disabled Generate Key button: what a browser without the script may send.
  await visit(page, base, `${keys}/new`);
  await gallery.capture(
    page,
    'api-key-new-errors',
    await submit(page, async () => {
      await page.evaluate('document.querySelector("form[data-permissions-form]").submit()');
    }),
  );
  await visit(page, base, `${keys}/new`);
  await page.getByLabel('Name').fill('Gallery script');
  await button(page, 'Read-only').click();
  await page.getByLabel('Detection', { exact: true }).selectOption('write');
  await page.getByLabel('Expiration').selectOption('30');
  await captureClick(gallery, page, 'api-key-created', button(page, 'Generate Key'));
  await captureVisit(gallery, page, base, 'api-key-created-gone', `${keys}/created`);
  await visit(page, base, `${keys}/new`);
  await page.getByLabel('Name').fill('Doomed key');
  await button(page, 'Read and write').click();
  await submit(page, () => button(page, 'Generate Key').click());
  await captureVisit(gallery, page, base, 'api-keys-list', keys);
  await captureClick(
    gallery,
    page,
    'api-key-delete-confirm',
    link(page, 'Delete token Doomed key'),
  );
  await captureClick(gallery, page, 'api-keys-deleted', button(page, 'Delete Token'));
  await captureVisit(gallery, page, base, 'account-admin', '/settings/access/account');
}

/** Settings → Members as an admin: every page of a member's lifecycle and its refusals. */
async function memberAdminPages(
  gallery: Gallery,
  page: Page,
  base: string,
): Promise<{ invitation: string; reset: string }> {
  const path = '/settings/members';
  await captureVisit(gallery, page, base, 'members-list', path);
  await captureClick(gallery, page, 'member-new', link(page, 'Add member'));
  await page.getByLabel('Email').fill('not an email');
  await page.getByRole('radio', { name: 'Set a password now' }).check();
  await page.getByLabel('Password', { exact: true }).fill('short');
  await captureClick(gallery, page, 'member-new-errors', button(page, 'Add member'));
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByLabel('Email').fill('grace@example.com');
  await page.getByRole('radio', { name: 'Send an invitation link' }).check();
  await captureClick(gallery, page, 'member-invited-link', button(page, 'Add member'));
  const invitation = await page.getByLabel('Invitation link').inputValue();
  await captureVisit(gallery, page, base, 'member-link-gone', `${path}/link-shown`);
  await visit(page, base, `${path}/new`);
  await page.getByLabel('Name').fill('Alan Turing');
  await page.getByLabel('Email').fill('alan@example.com');
  await page.getByRole('radio', { name: /^Workspace admin/ }).check();
  await page.getByRole('radio', { name: 'Set a password now' }).check();
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await captureClick(gallery, page, 'member-created', button(page, 'Add member'));
  await page.getByRole('radio', { name: /^Member/ }).check();
  await captureClick(gallery, page, 'member-role-changed', button(page, 'Change role'));
  await captureClick(gallery, page, 'member-disabled', button(page, 'Disable member'));
  await captureClick(gallery, page, 'member-enabled', button(page, 'Enable member'));
  await captureClick(gallery, page, 'member-reset-link', button(page, 'Reset password'));
  const reset = await page.getByLabel('Password reset link').inputValue();
  await captureClick(gallery, page, 'member-after-link', link(page, 'Done'));
  return { invitation, reset };
}

/** Deleting a member, and the refusal to demote the only admin. */
async function memberDeletePages(gallery: Gallery, page: Page, base: string): Promise<void> {
  const path = '/settings/members';
  await visit(page, base, path);
  await submit(page, () => link(page, 'Alan Turing').click());
  await captureClick(gallery, page, 'member-delete-confirm', link(page, /^Delete member/));
  await captureClick(gallery, page, 'members-deleted', button(page, 'Delete member'));
  // The only admin demoting themselves: refused, saying why.
  await submit(page, () => link(page, 'Ada Admin').click());
  await gallery.capture(page, 'member-self');
  await page.getByRole('radio', { name: /^Member/ }).check();
  await captureClick(gallery, page, 'member-last-admin-refused', button(page, 'Change role'));
  await captureVisit(gallery, page, base, 'members-list-after', path);
}

/** The pages behind one-time links, for someone not signed in. */
async function oneTimeLinkPages(
  gallery: Gallery,
  browser: Browser,
  base: string,
  sql: SqlClient,
  urls: { invitation: string; reset: string },
): Promise<void> {
  // The links point at APP_URL; the gallery's application listens elsewhere.
  const links = {
    invitation: `${base}${new URL(urls.invitation).pathname}`,
    reset: `${base}${new URL(urls.reset).pathname}`,
  };
  const { page, context } = await openPage(browser);
  await gallery.capture(page, 'invitation', (await page.goto(links.invitation))?.status());
  await page.getByLabel('New password').fill('a long enough password');
  await page.getByLabel('Confirm the password').fill('a long enough pasword');
  await captureClick(gallery, page, 'invitation-errors', button(page, 'Set password'));
  await page.getByLabel('New password').fill('a long enough password');
  await page.getByLabel('Confirm the password').fill('a long enough password');
  await captureClick(gallery, page, 'password-set', button(page, 'Set password'));
  await gallery.capture(page, 'invitation-used', (await page.goto(links.invitation))?.status());
  await sql.query(
    `UPDATE user_tokens SET created_at = now() - interval '2 days', expires_at = now() - interval '1 day'
      WHERE purpose = 'password_reset'`,
  );
  await gallery.capture(page, 'reset-expired', (await page.goto(links.reset))?.status());
  const unknown = links.reset.replace(/[^/]+$/, 'A'.repeat(43));
  await gallery.capture(page, 'reset-unknown', (await page.goto(unknown))?.status());
  await context.close();
}

async function auditLogPages(gallery: Gallery, page: Page, base: string): Promise<void> {
  const path = '/settings/audit-log';
  await captureVisit(gallery, page, base, 'audit-log', path);
  await page.getByLabel('Action').selectOption('user.');
  await captureClick(gallery, page, 'audit-log-members', button(page, 'Apply filters'));
  await captureVisit(
    gallery,
    page,
    base,
    'audit-log-settings',
    `${path}?action=settings.global_changed`,
  );
  await captureVisit(gallery, page, base, 'audit-log-errors', `${path}?since=2026-02-30&until=x`);
  await captureVisit(gallery, page, base, 'audit-log-empty', `${path}?actor=nobody`);
}

async function notificationPages(
  gallery: Gallery,
  page: Page,
  base: string,
  tag: string,
): Promise<void> {
  const path = '/settings/notifications';
  await captureVisit(gallery, page, base, `notifications-${tag}`, path);
  await page.getByLabel('Send email notifications').check();
  await page.getByRole('textbox', { name: 'Recipients' }).fill('soc@example.com, not-an-email');
  await page.getByRole('radio', { name: /^Threshold/ }).check();
  await page.getByLabel('Batch window (minutes)').fill('0');
  await page.getByLabel('Max events per notification').fill('lots');
  await page.getByLabel('Send webhook notifications').check();
  await captureClick(gallery, page, `notifications-${tag}-errors`, button(page, 'Save settings'));
}

async function integrationPages(
  gallery: Gallery,
  page: Page,
  base: string,
  sql: SqlClient,
): Promise<string> {
  const path = '/settings/integrations';
  await captureVisit(gallery, page, base, 'integrations-empty', path);
  await captureVisit(gallery, page, base, 'integration-enroll', `${path}/new`);
  await page.getByLabel('URL').fill('ftp://example.com/hook');
  await captureClick(gallery, page, 'integration-enroll-errors', button(page, 'Enroll provider'));
  await page.getByLabel('Name').fill('SOAR playbook');
  await page.getByRole('radio', { name: /^Automation platform/ }).check();
  await page.getByLabel('URL').fill('http://127.0.0.1:9/hook');
  await captureClick(gallery, page, 'integration-enrolled-secret', button(page, 'Enroll provider'));
  const providerId = (await link(page, 'Done').getAttribute('href'))!.split('/').pop()!;
  await captureVisit(gallery, page, base, 'integration-secret-gone', `${path}/secret-shown`);
  await new WebhookProviderService(sql, { policy: { allowPrivate: true, allowlist: [] } }).enroll({
    name: 'Doomed receiver',
    kind: 'custom',
    url: 'http://127.0.0.1:9/doomed',
  });
  await captureVisit(gallery, page, base, 'integration-provider-empty', `${path}/${providerId}`);
  await captureClick(gallery, page, 'integration-test-sent', button(page, 'Send a test event'));
  const dead = aDelivery({ target: providerId, subjectId: 'det-quiet-05' });
  const delivered = aDelivery({
    target: providerId,
    subjectId: 'inv-report',
    kind: 'investigation',
  });
  await deliverOnce(
    sql,
    [dead, delivered],
    new Map([
      [dead.id, [failed(502, 'HTTP 502: bad gateway'), { status: 'dead' }]],
      [delivered.id, [{ ...failed(200, ''), error: null }, { status: 'delivered' }]],
    ]),
  );
  await captureVisit(
    gallery,
    page,
    base,
    'integration-provider-deliveries',
    `${path}/${providerId}`,
  );
  await captureClick(
    gallery,
    page,
    'integration-provider-resent',
    button(page, /^Resend delivery/),
  );
  await captureClick(gallery, page, 'integration-rotate-confirm', link(page, 'Rotate secret'));
  await captureClick(gallery, page, 'integration-rotated-secret', button(page, 'Rotate secret'));
  await captureVisit(gallery, page, base, 'integration-provider-overlap', `${path}/${providerId}`);
  await captureVisit(gallery, page, base, 'integrations-list', path);
  await submit(page, () => link(page, 'Doomed receiver').click());
  await captureClick(
    gallery,
    page,
    'integration-delete-confirm',
    link(page, 'Delete provider Doomed receiver'),
  );
  await captureClick(gallery, page, 'integrations-deleted', button(page, 'Delete provider'));
  return providerId;
}

async function silencePages(gallery: Gallery, page: Page, base: string): Promise<void> {
  const path = '/settings/notifications';
  await visit(page, base, path);
  await page.getByLabel('Send email notifications').check();
  await page.getByRole('textbox', { name: 'Recipients' }).fill('soc@example.com\nciso@example.com');
  await page.getByRole('radio', { name: /^Immediate/ }).check();
  await captureClick(gallery, page, 'notifications-saved', button(page, 'Save settings'));
  await captureClick(gallery, page, 'notifications-snoozed', button(page, 'Snooze for 1 hour'));
  await captureClick(
    gallery,
    page,
    'notifications-disabled',
    button(page, 'Disable notifications'),
  );
  await captureClick(gallery, page, 'notifications-resumed', button(page, 'Resume notifications'));
}

const failed = (statusCode: number | null, error: string): Attempt => ({
  attemptedAt: new Date(),
  statusCode,
  latencyMs: 40,
  error,
});

function aDelivery(overrides: Partial<NewDelivery>): NewDelivery {
  return {
    id: randomUUID(),
    notificationId: randomUUID(),
    kind: 'detection',
    channel: 'webhook',
    target: 'unset',
    subjectId: BUSY,
    payload: { type: 'detection.updated' },
    ...overrides,
  };
}

async function detectionPages(
  gallery: Gallery,
  page: Page,
  base: string,
  sql: SqlClient,
  providerId: string,
): Promise<void> {
  const list = '/u/detections';
  const busy = `${list}/${BUSY}`;
  await captureVisit(gallery, page, base, 'detections-list', list);
  await captureClick(gallery, page, 'detections-list-page-2', link(page, 'Next page'));
  await captureVisit(gallery, page, base, 'detections-bad-cursor', `${list}?cursor=nonsense`);
  await captureVisit(gallery, page, base, 'detection-inherits', busy);
  await page.getByLabel('Filter events').fill('risk_score >');
  await captureClick(gallery, page, 'detection-query-error', button(page, 'Apply'));
  await page.getByLabel('Filter events').fill('risk_score > 0');
  await submit(page, () => button(page, 'Apply').click());
  await submit(page, () => link(page, 'Older events').click());
  await captureClick(gallery, page, 'detection-paged', link(page, 'More users'));
  await captureVisit(gallery, page, base, 'detection-bad-cursor', `${busy}?cursor=nonsense`);
  await visit(page, base, busy);
  await captureClick(gallery, page, 'detection-custom-on', page.getByRole('switch'));
  await page.getByRole('textbox', { name: 'Recipients' }).fill('oncall@example.com, nobody@');
  await page.getByRole('radio', { name: /^Threshold/ }).check();
  await captureClick(gallery, page, 'detection-custom-errors', button(page, 'Save settings'));
  await page.getByRole('textbox', { name: 'Recipients' }).fill('oncall@example.com');
  await page.getByLabel('Notify when the event count exceeds').fill('10');
  await page.getByLabel('Send webhook notifications').check();
  await page.getByRole('checkbox', { name: /SOAR playbook/ }).check();
  await captureClick(gallery, page, 'detection-custom-saved', button(page, 'Save settings'));
  await captureClick(gallery, page, 'detection-custom-snoozed', button(page, 'Snooze 24 h'));
  await captureClick(gallery, page, 'detection-custom-disabled', button(page, 'Disable'));
  await captureClick(gallery, page, 'detection-custom-resumed', button(page, 'Resume'));
  await captureClick(gallery, page, 'detection-custom-off', page.getByRole('switch'));
  await visit(page, base, `${list}/${QUIET}`);
  await captureClick(gallery, page, 'detection-inherited-snoozed', button(page, 'Snooze 1 h'));
  await visit(page, base, `${list}/det-quiet-01`);
  await captureClick(gallery, page, 'detection-inherited-disabled', button(page, 'Disable'));

  const gone = await new WebhookProviderService(sql, {
    policy: { allowPrivate: true, allowlist: [] },
  }).enroll({ name: 'Old bridge', kind: 'custom', url: 'http://127.0.0.1:9/old' });
  await new WebhookProviderService(sql).delete(gone.provider.id);
  const email = aDelivery({ channel: 'email', target: 'soc@example.com' });
  const deadWebhook = aDelivery({ target: providerId });
  const deadGone = aDelivery({ target: gone.provider.id });
  const retrying = aDelivery({ target: providerId });
  const networkError = aDelivery({ target: providerId });
  const fresh = aDelivery({ channel: 'email', target: 'ciso@example.com' });
  await deliverOnce(
    sql,
    [email, deadWebhook, deadGone, retrying, networkError, fresh],
    new Map([
      [email.id, [{ ...failed(null, ''), error: null }, { status: 'delivered' }]],
      [deadWebhook.id, [failed(500, 'HTTP 500: receiver is down'), { status: 'dead' }]],
      [deadGone.id, [failed(410, 'HTTP 410: gone'), { status: 'dead' }]],
      [retrying.id, [failed(503, 'HTTP 503'), { status: 'retry', delayMs: 60 * MINUTE }]],
      [
        networkError.id,
        [failed(null, 'connect ECONNREFUSED 127.0.0.1:9'), { status: 'retry', delayMs: 0 }],
      ],
    ]),
  );
  await captureVisit(gallery, page, base, 'detection-deliveries', busy);
  await captureClick(
    gallery,
    page,
    'detection-delivery-resent',
    button(page, `Resend delivery ${deadWebhook.id}`),
  );
  await captureVisit(gallery, page, base, 'detection-not-found', `${list}/det-none`);
  await visit(page, base, busy);
  await captureClick(gallery, page, 'detection-dry-run', link(page, 'What would be sent now'));
  await page
    .locator('details')
    .evaluateAll((all) => all.forEach((d) => ((d as unknown as { open: boolean }).open = true)));
  await gallery.capture(page, 'detection-dry-run-payloads');
  await captureVisit(
    gallery,
    page,
    base,
    'detection-dry-run-nothing',
    `${list}/det-quiet-02/dry-run`,
  );
  await captureVisit(
    gallery,
    page,
    base,
    'detection-dry-run-not-recorded',
    `${list}/det-quiet-05/dry-run`,
  );
  await captureVisit(
    gallery,
    page,
    base,
    'detection-dry-run-not-found',
    `${list}/det-none/dry-run`,
  );
  await captureVisit(gallery, page, base, 'investigation', '/u/investigations/inv-report');
  await captureVisit(gallery, page, base, 'investigation-sparse', '/u/investigations/inv-sparse');
  await captureVisit(gallery, page, base, 'investigation-not-found', '/u/investigations/inv-none');
}

async function memberPages(
  gallery: Gallery,
  browser: Browser,
  base: string,
  providerId: string,
): Promise<void> {
  const { page, context } = await openPage(browser);
  const signedIn = await signIn(page, base, MEMBER.email, PASSWORD);
  await gallery.capture(page, 'member-account', signedIn.status());
  await captureVisit(gallery, page, base, 'member-api-keys-refused', '/settings/access/api-keys');
  await captureVisit(gallery, page, base, 'member-notifications', '/settings/notifications');
  await captureVisit(gallery, page, base, 'member-integrations', '/settings/integrations');
  await captureVisit(
    gallery,
    page,
    base,
    'member-integration-provider',
    `/settings/integrations/${providerId}`,
  );
  await captureVisit(gallery, page, base, 'member-enroll-refused', '/settings/integrations/new');
  await captureVisit(gallery, page, base, 'member-detections', '/u/detections');
  await captureVisit(gallery, page, base, 'member-detection', `/u/detections/${BUSY}`);
  await captureVisit(gallery, page, base, 'member-detection-custom', `/u/detections/${QUIET}`);
  await captureVisit(
    gallery,
    page,
    base,
    'member-detection-dry-run',
    `/u/detections/${BUSY}/dry-run`,
  );
  await captureVisit(gallery, page, base, 'member-investigation', '/u/investigations/inv-report');
  await captureVisit(gallery, page, base, 'member-members-refused', '/settings/members');
  await captureVisit(gallery, page, base, 'member-audit-log-refused', '/settings/audit-log');
  await context.close();
}

async function main(dir: string): Promise<void> {
  const runId = `gallery${newRunId()}`;
  const database = `vigil_${runId}`;
  const admin = new Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  const elasticsearchUrl = process.env.ELASTICSEARCH_URL ?? serverDefaults.ELASTICSEARCH_URL;
  Object.assign(process.env, {
    DATABASE_URL: databaseUrlFor(database),
    ELASTICSEARCH_URL: elasticsearchUrl,
    VIGIL_INDEX_PREFIX: `${runId}-`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
    NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
    // The apps refuse a shared database without the key that seals webhook secrets.
    VIGIL_SECRETS_KEY: process.env.VIGIL_SECRETS_KEY ?? randomBytes(32).toString('base64'),
  });
  let web: RunningApp | undefined;
  let sql: SqlClient | undefined;
  let browser: Browser | undefined;
  try {
    web = await startWeb({ ...process.env, WEB_PORT: '0' });
    const base = web.url!;
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    const users = createUserService(sql);
    await users.createUser({ ...ADMIN, role: 'admin', password: PASSWORD });
    await users.createUser({ ...MEMBER, role: 'member', password: PASSWORD });
    const events = seedEvents();
    // As the processor would have recorded them: the busy detection notified at 25 of its 30
    // events, det-quiet-02 notified of its one event, the others not recorded yet.
    const notified = {
      ...DEFAULT_NOTIFICATION_SETTINGS,
      emailEnabled: true,
      recipients: ['soc@example.com'],
      frequency: 'immediate' as const,
      webhookEnabled: true,
      webhookProviderIds: ['any'],
    };
    const ofDetection = (id: string) => events.filter((e) => e.detection_id === id);
    await indexReadModels({
      events,
      detectionStates: [
        {
          snapshot: detectionStateOf(ofDetection(BUSY), {
            settings: notified,
            at: T0 + (24 * 60 + 26) * MINUTE,
            count: 25,
          }),
          recordedAt: T0 + (24 * 60 + 30) * MINUTE,
        },
        {
          snapshot: detectionStateOf(ofDetection('det-quiet-02'), {
            settings: notified,
            at: T0 + 3 * MINUTE,
            count: 1,
          }),
          recordedAt: T0 + 3 * MINUTE,
        },
      ],
      investigations: [
        anInvestigationRecord({
          id: 'inv-report',
          headline: 'Bulk download before leaving',
          findings: [
            {
              title: 'Files copied to a personal drive',
              description: 'Three exports in one evening',
              evidence: ['Export of 14 May, 19:02', 'Export of 14 May, 19:40'],
            },
            { title: 'Resignation letter sent', description: 'HR record', evidence: [] },
          ],
          person: {
            name: 'Grace Hopper',
            email: 'grace@example.com',
            role: 'Analyst',
            department: 'Finance',
            manager: 'Alan Turing',
          },
          detection: { id: BUSY, name: 'Bulk export' },
        }),
        anInvestigationRecord({
          id: 'inv-sparse',
          status: 'in_review',
          outcome: 'needs_follow_up',
          findings: [],
          person: {
            name: 'Bo',
            email: 'bo@example.com',
            role: null,
            department: null,
            manager: null,
          },
          detection: { id: 'det-unknown', name: '' },
        }),
      ],
    });
    browser = await launchBrowser();
    const gallery = new Gallery(dir);
    await anonymousPages(gallery, browser, base);
    const { page } = await openPage(browser);
    await signIn(page, base, ADMIN.email, PASSWORD);
    await apiKeyPages(gallery, page, base);
    await notificationPages(gallery, page, base, 'no-providers');
    const providerId = await integrationPages(gallery, page, base, sql);
    await notificationPages(gallery, page, base, 'with-providers');
    await silencePages(gallery, page, base);
    await detectionPages(gallery, page, base, sql, providerId);
    const links = await memberAdminPages(gallery, page, base);
    await oneTimeLinkPages(gallery, browser, base, sql, links);
    await memberDeletePages(gallery, page, base);
    await auditLogPages(gallery, page, base);
    await memberPages(gallery, browser, base, providerId);
    gallery.finish();
  } finally {
    await browser?.close();
    await web?.stop();
    await sql?.close();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
    const es = new ElasticsearchClient({ node: elasticsearchUrl });
    await es.indices
      .delete({ index: `${runId}-*`, expand_wildcards: 'all' })
      .catch(() => undefined);
    await es.indices.deleteIndexTemplate({ name: `${runId}-*` }).catch(() => undefined);
    await es.close();
  }
}

const [dir] = process.argv.slice(2);
if (dir === undefined) {
  process.stderr.write('usage: page-gallery.ts <output folder>\n');
  process.exit(2);
}
main(dir).then(
  () => process.stdout.write(`gallery written to ${dir}\n`),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
