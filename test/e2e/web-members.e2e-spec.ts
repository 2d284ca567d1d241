import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { SqlAuditLog, createUserService } from '@vigil/control-plane';
import {
  navigateBy,
  openPage,
  overflowsHorizontally,
  screenshot,
  signIn,
} from '../support/browser';
import { SmtpSink } from '../support/smtp-sink';
import { PASSWORD, startWebHarness, type WebHarness, type WebUser } from '../support/web-harness';

jest.setTimeout(240_000);

const MEMBERS = '/settings/members';
const NEW_PASSWORD = 'a brand new password';

/** What a person sees first when a change is refused. */
async function alertText(page: Page): Promise<string> {
  return (await page.getByRole('alert').first().textContent()) ?? '';
}

async function heading(page: Page): Promise<string | null> {
  return page.getByRole('heading', { level: 1 }).textContent();
}

function button(page: Page, name: string) {
  return page.getByRole('button', { name, exact: true });
}

function click(page: Page, name: string) {
  return navigateBy(page, () => button(page, name).click());
}

describe('web application: Settings → Members', () => {
  let harness: WebHarness;
  let base: string;

  beforeAll(async () => {
    harness = await startWebHarness();
    base = harness.url;
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const users = () => createUserService(harness.sql);

  async function userNamed(email: string) {
    const user = await users().findByEmail(email);
    if (user === null) throw new Error(`no user ${email}`);
    return user;
  }

  async function openMember(page: Page, email: string): Promise<void> {
    await page.goto(`${base}${MEMBERS}/${(await userNamed(email)).id}`);
  }

  /** Adds a member through the form; returns the response of the page it leads to. */
  async function addMember(
    page: Page,
    member: { name: string; email: string; role?: 'admin' | 'member'; password?: string },
  ) {
    await page.goto(`${base}${MEMBERS}/new`);
    await page.getByLabel('Name').fill(member.name);
    await page.getByLabel('Email').fill(member.email);
    if (member.role === 'admin') await page.getByRole('radio', { name: 'Workspace admin' }).check();
    if (member.password === undefined) {
      await page.getByRole('radio', { name: 'Send an invitation link' }).check();
    } else {
      await page.getByRole('radio', { name: 'Set a password now' }).check();
      await page.getByLabel('Password', { exact: true }).fill(member.password);
    }
    return click(page, 'Add member');
  }

  /** A new member with PASSWORD, straight into the database. */
  async function aMember(role: 'admin' | 'member' = 'member'): Promise<WebUser> {
    const who = { email: `m-${randomUUID()}@example.com`, name: `Morgan ${role}` };
    await users().createUser({ ...who, role, password: PASSWORD });
    return who;
  }

  /** The page a one-time link opens, on this test's server (links point at APP_URL). */
  function onThisServer(link: string): string {
    return `${base}${new URL(link).pathname}`;
  }

  async function choosePassword(page: Page, link: string, password: string, again = password) {
    await page.goto(onThisServer(link));
    await page.getByLabel('New password').fill(password);
    await page.getByLabel('Confirm the password').fill(again);
    return click(page, 'Set password');
  }

  async function canSignIn(email: string, password: string): Promise<boolean> {
    const { context, page } = await harness.openPage();
    const response = await signIn(page, base, email, password);
    await context.close();
    return response.status() === 200 && !response.url().includes('/sign-in');
  }

  it('never demotes, disables or deletes the last active admin, and says why', async () => {
    const page = await harness.signedIn(harness.admin);
    const admin = await userNamed(harness.admin.email);
    await openMember(page, harness.admin.email);
    await page.getByRole('radio', { name: /^Member/ }).check();
    const demoted = await click(page, 'Change role');
    expect(demoted.status()).toBe(409);
    await expect(alertText(page)).resolves.toContain(
      'Vigil always keeps one active admin: make another admin first.',
    );
    expect(await page.evaluate('document.activeElement.id')).toBe('refusal');
    await screenshot(page, 'members-last-admin');
    for (const action of ['Disable member']) {
      expect((await click(page, action)).status()).toBe(409);
      await expect(alertText(page)).resolves.toContain('Vigil always keeps one active admin');
    }
    await navigateBy(page, () =>
      page.getByRole('link', { name: `Delete member ${harness.admin.name}` }).click(),
    );
    expect((await click(page, 'Delete member')).status()).toBe(409);
    await expect(alertText(page)).resolves.toContain('Vigil always keeps one active admin');
    expect(await userNamed(harness.admin.email)).toEqual(admin);
    // Still signed in, still an admin.
    expect((await page.goto(`${base}${MEMBERS}`))?.status()).toBe(200);
    await page.close();
  });

  it('adds a member with a password, who signs in with it and has member rights', async () => {
    const page = await harness.signedIn(harness.admin);
    const email = `grace-${randomUUID()}@example.com`;
    const response = await addMember(page, { name: 'Grace Hopper', email, password: PASSWORD });
    expect(response.status()).toBe(200);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'Member added.',
    );
    await expect(heading(page)).resolves.toBe('Grace Hopper');
    await page.goto(`${base}${MEMBERS}`);
    const row = page.getByRole('row').filter({ hasText: email });
    await expect(row.textContent()).resolves.toMatch(/Grace Hopper.*Member.*Active.*Never/s);
    expect(await canSignIn(email, PASSWORD)).toBe(true);
    await page.close();
  });

  it('refuses a member without a name, a bad email, a taken one or a short password, and adds no one', async () => {
    const page = await harness.signedIn(harness.admin);
    const before = (await users().list()).length;
    await page.goto(`${base}${MEMBERS}/new`);
    await page.getByLabel('Email').fill('not an email');
    await page.getByRole('radio', { name: 'Set a password now' }).check();
    await page.getByLabel('Password', { exact: true }).fill('short');
    const refused = await click(page, 'Add member');
    expect(refused.status()).toBe(422);
    const summary = await alertText(page);
    expect(summary).toContain('Name is required.');
    expect(summary).toContain('Email must be an email address.');
    expect(summary).toContain('Password must be at least 12 characters.');
    // The summary has the focus, and each message links to its field.
    expect(await page.evaluate('document.activeElement.id')).toBe('error-summary');
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');
    await page.getByRole('link', { name: 'Email must be an email address.' }).click();
    expect(await page.evaluate('document.activeElement.id')).toBe('email');
    await screenshot(page, 'members-new-errors');

    const taken = await addMember(page, {
      name: 'Copycat',
      email: harness.member.email.toUpperCase(),
      password: PASSWORD,
    });
    expect(taken.status()).toBe(409);
    await expect(alertText(page)).resolves.toContain('Email is already taken.');
    expect(await users().list()).toHaveLength(before);
    await page.close();
  });

  it('invites a member: the link is shown once, works once, and signs nobody in', async () => {
    const page = await harness.signedIn(harness.admin);
    const email = `alan-${randomUUID()}@example.com`;
    const response = await addMember(page, { name: 'Alan Turing', email });
    expect(response.status()).toBe(201);
    const link = await page.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(/\/invitation\/[A-Za-z0-9_-]{43}$/);
    await screenshot(page, 'members-invited');
    await navigateBy(page, () => page.reload().then(() => undefined));
    expect(new URL(page.url()).pathname).toBe(`${MEMBERS}/link-shown`);
    expect(await page.content()).not.toContain(link);
    await page.goto(`${base}${MEMBERS}`);
    await expect(page.getByRole('row').filter({ hasText: email }).textContent()).resolves.toContain(
      'Invited',
    );
    expect(await canSignIn(email, NEW_PASSWORD)).toBe(false);

    const { context, page: invitee } = await harness.openPage();
    await invitee.goto(onThisServer(link));
    await expect(heading(invitee)).resolves.toBe('Choose your password');
    await expect(invitee.locator('main').textContent()).resolves.toContain(email);
    const mismatch = await choosePassword(invitee, link, NEW_PASSWORD, 'a brand new pasword');
    expect(mismatch.status()).toBe(422);
    await expect(alertText(invitee)).resolves.toContain('The two passwords differ');
    expect(await invitee.evaluate('document.activeElement.id')).toBe('error-summary');
    const set = await choosePassword(invitee, link, NEW_PASSWORD);
    expect(set.status()).toBe(200);
    expect(new URL(invitee.url()).pathname).toBe('/password-set');
    await expect(heading(invitee)).resolves.toBe('Your password is set');
    // Nobody is signed in by it.
    expect((await context.cookies()).some((c) => c.name === 'vigil_session')).toBe(false);
    const again = await invitee.goto(onThisServer(link));
    expect(again?.status()).toBe(410);
    await expect(alertText(invitee)).resolves.toContain('This link was already used.');
    await context.close();
    expect(await canSignIn(email, NEW_PASSWORD)).toBe(true);
    await page.close();
  });

  it('changes a role on the member’s next request, and takes it back the same way', async () => {
    const morgan = await aMember();
    const { context, page: theirs } = await harness.openPage();
    await signIn(theirs, base, morgan.email, PASSWORD);
    expect((await theirs.goto(`${base}${MEMBERS}`))?.status()).toBe(403);

    const page = await harness.signedIn(harness.admin);
    await openMember(page, morgan.email);
    await page.getByRole('radio', { name: 'Workspace admin' }).check();
    await click(page, 'Change role');
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'Role changed.',
    );
    // Their open session ended: the next request signs them in again, as an admin.
    await theirs.goto(`${base}${MEMBERS}`);
    expect(new URL(theirs.url()).pathname).toBe('/sign-in');
    await signIn(theirs, base, morgan.email, PASSWORD);
    expect((await theirs.goto(`${base}${MEMBERS}`))?.status()).toBe(200);

    await openMember(page, morgan.email);
    await page.getByRole('radio', { name: /^Member/ }).check();
    await click(page, 'Change role');
    expect((await theirs.goto(`${base}${MEMBERS}`))?.status()).toBe(200);
    expect(new URL(theirs.url()).pathname).toBe('/sign-in');
    await context.close();
    await page.close();
  });

  it('disables a member: their open session is refused on its next request and so is sign-in, until enabled', async () => {
    const morgan = await aMember();
    const { context, page: theirs } = await harness.openPage();
    await signIn(theirs, base, morgan.email, PASSWORD);
    expect((await theirs.goto(`${base}/settings/access/account`))?.status()).toBe(200);

    const page = await harness.signedIn(harness.admin);
    await openMember(page, morgan.email);
    await click(page, 'Disable member');
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'Member disabled.',
    );
    await screenshot(page, 'members-disabled');
    await theirs.goto(`${base}/settings/access/account`);
    expect(new URL(theirs.url()).pathname).toBe('/sign-in');
    await signIn(theirs, base, morgan.email, PASSWORD);
    await expect(alertText(theirs)).resolves.toContain('The email or password is incorrect.');
    await page.goto(`${base}${MEMBERS}`);
    await expect(
      page.getByRole('row').filter({ hasText: morgan.email }).textContent(),
    ).resolves.toContain('Disabled');
    // A disabled member gets no reset link either.
    await openMember(page, morgan.email);
    expect(await button(page, 'Reset password').count()).toBe(0);

    await click(page, 'Enable member');
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'Member enabled.',
    );
    expect(await canSignIn(morgan.email, PASSWORD)).toBe(true);
    await context.close();
    await page.close();
  });

  it('resets a password with a link that works once; an expired or replaced link is refused, saying why', async () => {
    const morgan = await aMember();
    const page = await harness.signedIn(harness.admin);
    await openMember(page, morgan.email);
    const issued = await click(page, 'Reset password');
    expect(issued.status()).toBe(201);
    const first = await page.getByLabel('Password reset link').inputValue();
    expect(first).toMatch(/\/reset-password\/[A-Za-z0-9_-]{43}$/);
    // The old password works until the link is used.
    expect(await canSignIn(morgan.email, PASSWORD)).toBe(true);

    await openMember(page, morgan.email);
    await click(page, 'Reset password');
    const second = await page.getByLabel('Password reset link').inputValue();
    const { context, page: theirs } = await harness.openPage();
    const replaced = await theirs.goto(onThisServer(first));
    expect(replaced?.status()).toBe(410);
    await expect(alertText(theirs)).resolves.toContain('A newer link was issued');

    expect((await choosePassword(theirs, second, NEW_PASSWORD)).status()).toBe(200);
    expect(await canSignIn(morgan.email, PASSWORD)).toBe(false);
    expect(await canSignIn(morgan.email, NEW_PASSWORD)).toBe(true);
    expect((await theirs.goto(onThisServer(second)))?.status()).toBe(410);

    await openMember(page, morgan.email);
    await click(page, 'Reset password');
    const late = await page.getByLabel('Password reset link').inputValue();
    await harness.sql.query(
      `UPDATE user_tokens SET created_at = now() - interval '2 days', expires_at = now() - interval '1 day'
        WHERE user_id = $1 AND used_at IS NULL AND superseded_at IS NULL`,
      [(await userNamed(morgan.email)).id],
    );
    const expired = await theirs.goto(onThisServer(late));
    expect(expired?.status()).toBe(410);
    await expect(alertText(theirs)).resolves.toContain(
      'This link has expired. Ask a workspace admin for a new one.',
    );
    await screenshot(theirs, 'members-link-expired');
    // Posting to it anyway changes nothing.
    const csrf = await theirs.evaluate<string>(
      `fetch('/sign-in').then((r) => r.text()).then((t) => /name="_csrf" value="([^"]+)"/.exec(t)[1])`,
    );
    const posted = await theirs.evaluate<number>(
      `fetch(${JSON.stringify(new URL(late).pathname)}, { method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: ${JSON.stringify(csrf)}, password: 'yet another password',
          confirmation: 'yet another password' }) }).then((r) => r.status)`,
    );
    expect(posted).toBe(410);
    expect(await canSignIn(morgan.email, NEW_PASSWORD)).toBe(true);
    const unknown = await theirs.goto(`${base}/reset-password/${'A'.repeat(43)}`);
    expect(unknown?.status()).toBe(404);
    await expect(alertText(theirs)).resolves.toContain('This link is not valid.');
    await context.close();
    await page.close();
  });

  it('deletes a member after confirmation; their session ends with them', async () => {
    const morgan = await aMember();
    const { context, page: theirs } = await harness.openPage();
    await signIn(theirs, base, morgan.email, PASSWORD);
    const page = await harness.signedIn(harness.admin);
    await openMember(page, morgan.email);
    const name = `Delete member ${morgan.name}`;
    await navigateBy(page, () => page.getByRole('link', { name }).click());
    await expect(page.getByRole('heading', { level: 2 }).first().textContent()).resolves.toBe(
      `Delete ${morgan.name}?`,
    );
    expect(await page.evaluate('document.activeElement.textContent.trim()')).toBe('Cancel');
    await screenshot(page, 'members-delete-confirm');
    await navigateBy(page, () => page.getByRole('link', { name: 'Cancel' }).click());
    expect(await users().findByEmail(morgan.email)).not.toBeNull();

    await navigateBy(page, () => page.getByRole('link', { name }).click());
    await click(page, 'Delete member');
    expect(new URL(page.url()).pathname).toBe(MEMBERS);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'Member deleted.',
    );
    expect(await page.getByRole('row').filter({ hasText: morgan.email }).count()).toBe(0);
    expect(await users().findByEmail(morgan.email)).toBeNull();
    await theirs.goto(`${base}/settings/access/account`);
    expect(new URL(theirs.url()).pathname).toBe('/sign-in');
    await context.close();
    await page.close();
  });

  it('lets an admin demote themselves once another admin exists: their next request has member rights', async () => {
    const other = await aMember('admin');
    const self = await aMember('admin');
    const page = await harness.signedIn(self);
    await openMember(page, self.email);
    await page.getByRole('radio', { name: /^Member/ }).check();
    await click(page, 'Change role');
    // The role change ended their own session too.
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    await signIn(page, base, self.email, PASSWORD);
    expect((await page.goto(`${base}${MEMBERS}`))?.status()).toBe(403);
    expect(await page.getByRole('link', { name: 'Members' }).count()).toBe(0);
    expect((await userNamed(other.email)).role).toBe('admin');
    await page.close();
  });

  it('shows a member no Members or Audit log, and refuses them every route of both with a valid CSRF token', async () => {
    const target = await userNamed(harness.admin.email);
    const page = await harness.signedIn(harness.member);
    expect(await page.getByRole('navigation', { name: 'Main' }).textContent()).not.toMatch(
      /Members|Audit log/,
    );
    const before = await users().list();
    const member = `${MEMBERS}/${target.id}`;
    for (const path of [
      MEMBERS,
      `${MEMBERS}/new`,
      `${MEMBERS}/link-shown`,
      member,
      `${member}/delete`,
      '/settings/audit-log',
    ]) {
      expect([path, (await page.goto(`${base}${path}`))?.status()]).toEqual([path, 403]);
    }
    await expect(heading(page)).resolves.toBe('Workspace admins only');
    await screenshot(page, 'members-member-refused');
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    for (const [path, fields] of [
      [
        MEMBERS,
        {
          name: 'Sneaky',
          email: 'sneaky@example.com',
          role: 'admin',
          access: 'password',
          password: PASSWORD,
        },
      ],
      [`${member}/role`, { role: 'member' }],
      [`${member}/disable`, {}],
      [`${member}/enable`, {}],
      [`${member}/reset-password`, {}],
      [`${member}/delete`, {}],
    ] as const) {
      const status = await page.evaluate<number>(
        `fetch('${path}', { method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(${JSON.stringify({ _csrf: csrf, ...fields })}) }).then((r) => r.status)`,
      );
      expect([path, status]).toEqual([path, 403]);
    }
    expect(await users().list()).toEqual(before);
    await page.close();
  });

  it.each([1280, 800])(
    'lays out every Members page without sideways scrolling at %i px',
    async (width) => {
      const page = await harness.signedIn(harness.admin, { width });
      const invited = `ivy-${width}-${randomUUID()}@example.com`;
      await addMember(page, { name: `Ivy ${width}`, email: invited });
      const link = await page.getByLabel('Invitation link').inputValue();
      expect(await overflowsHorizontally(page)).toBe(false);
      await screenshot(page, 'members-link');
      const id = (await userNamed(invited)).id;
      for (const [name, path] of [
        ['members-list', MEMBERS],
        ['members-new', `${MEMBERS}/new`],
        ['members-member', `${MEMBERS}/${id}`],
        ['members-delete', `${MEMBERS}/${id}/delete`],
        ['members-link-gone', `${MEMBERS}/link-shown`],
      ]) {
        await page.goto(`${base}${path}`);
        expect([path, await overflowsHorizontally(page)]).toEqual([path, false]);
        await screenshot(page, name);
      }
      const { context, page: invitee } = await openPage(harness.browser, width);
      await invitee.goto(onThisServer(link));
      expect(await overflowsHorizontally(invitee)).toBe(false);
      await screenshot(invitee, 'members-invitation');
      await context.close();
      await page.close();
    },
  );

  it('records every change of a member in the audit log, with who made it and from where', async () => {
    const admin = await userNamed(harness.admin.email);
    const requestId = `members-${randomUUID()}`;
    const page = await harness.signedIn(harness.admin);
    await page.setExtraHTTPHeaders({ 'x-request-id': requestId });
    const email = `audited-${randomUUID()}@example.com`;
    await addMember(page, { name: 'Audited', email, password: PASSWORD });
    const id = (await userNamed(email)).id;
    await page.getByRole('radio', { name: 'Workspace admin' }).check();
    await click(page, 'Change role');
    await click(page, 'Disable member');
    await click(page, 'Enable member');
    await click(page, 'Reset password');
    await openMember(page, email);
    await navigateBy(page, () => page.getByRole('link', { name: 'Delete member Audited' }).click());
    await click(page, 'Delete member');
    const { events } = await new SqlAuditLog(harness.sql).list({ targetId: id });
    expect(events.map((e) => e.action)).toEqual([
      'user.deleted',
      'user.password_reset_issued',
      'user.enabled',
      'user.disabled',
      'user.role_changed',
      'user.created',
    ]);
    for (const event of events) {
      expect(event).toMatchObject({
        actor: { type: 'user', id: admin.id, label: admin.email },
        address: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/),
        requestId,
        target: { type: 'user', id },
      });
    }
    expect(events[4].details).toMatchObject({ before: 'member', after: 'admin' });
    await page.close();
  });
});

describe('web application: member links by email, when SMTP_HOST is set', () => {
  let sink: SmtpSink;
  let sinkRunning = false;
  let harness: WebHarness;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    harness = await startWebHarness({
      env: {
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(sink.port),
        APP_URL: 'https://vigil.example.com',
      },
    });
    sinkRunning = true;
  });

  afterAll(async () => {
    await harness?.stop();
    if (sinkRunning) await sink.stop();
  });

  it('emails the invitation, escaped, and never shows the link to the admin', async () => {
    const page = await harness.signedIn(harness.admin);
    const email = `eve-${randomUUID()}@example.com`;
    const name = 'Eve <b>Bold</b>';
    await page.goto(`${harness.url}${MEMBERS}/new`);
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Email').fill(email);
    await expect(
      page.getByRole('radio', { name: 'Send an invitation link' }).getAttribute('aria-describedby'),
    ).resolves.toBeTruthy();
    await expect(page.locator('#access-invite-desc').textContent()).resolves.toContain(
      'Emailed to them.',
    );
    const response = await click(page, 'Add member');
    expect(response.status()).toBe(200);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(
      'Invitation emailed.',
    );
    const [mail] = sink.to(email);
    expect(mail.subject).toBe('You are invited to Vigil');
    const link = /https:\/\/vigil\.example\.com\/invitation\/[A-Za-z0-9_-]{43}/.exec(
      mail.text!,
    )![0];
    expect(mail.html).toContain('Hello Eve &lt;b&gt;Bold&lt;/b&gt;,');
    expect(await page.content()).not.toContain(link.split('/').pop());
    await page.close();
  });

  it('shows the link with the reason when the email cannot be sent', async () => {
    const page = await harness.signedIn(harness.admin);
    const morgan = { email: `m-${randomUUID()}@example.com`, name: 'Morgan' };
    await createUserService(harness.sql).createUser({
      ...morgan,
      role: 'member',
      password: PASSWORD,
    });
    await sink.stop();
    sinkRunning = false;
    const id = (await createUserService(harness.sql).findByEmail(morgan.email))!.id;
    await page.goto(`${harness.url}${MEMBERS}/${id}`);
    const response = await click(page, 'Reset password');
    expect(response.status()).toBe(201);
    await expect(alertText(page)).resolves.toContain('The email could not be sent');
    expect(await page.getByLabel('Password reset link').inputValue()).toMatch(
      /^https:\/\/vigil\.example\.com\/reset-password\//,
    );
    await page.close();
  });
});
