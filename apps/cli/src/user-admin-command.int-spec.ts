import { randomUUID } from 'node:crypto';
import { createPgSqlClient, createUserService, type SqlClient } from '@vigil/control-plane';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from './cli';
import { operatorName } from './with-control-plane';

const APP_URL = 'https://vigil.example.com';

async function vigil(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: { DATABASE_URL: process.env.DATABASE_URL, APP_URL },
    stdin: async () => 'a long enough password\n',
  });
  return { code, stdout, stderr };
}

let sql: SqlClient;
beforeAll(() => {
  sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
});
afterAll(() => sql.close());

async function aUser(role: 'admin' | 'member') {
  const email = `${role}-${randomUUID()}@example.com`;
  const run = await vigil(
    'user',
    'create',
    '--email',
    email,
    '--name',
    'N',
    '--role',
    role,
    '--password-stdin',
  );
  expect(run.code).toBe(EXIT_OK);
  return email;
}

describe('vigil user (CLI) offboarding verbs on PostgreSQL', () => {
  it('lists users with role and status', async () => {
    const email = await aUser('member');
    const listed = await vigil('user', 'list');
    expect(listed.code).toBe(EXIT_OK);
    expect(listed.stdout).toMatch(/^ID +EMAIL +NAME +ROLE +STATUS +SIGN-IN +LAST SIGN-IN +CREATED/);
    const row = listed.stdout.split('\n').find((line) => line.includes(email))!;
    expect(row).toMatch(/Member +Active +password +never/);
    const json = JSON.parse((await vigil('user', 'list', '--json')).stdout);
    expect(json.find((u: { email: string }) => u.email === email)).toMatchObject({
      role: 'member',
      status: 'active',
    });
  });

  it('disables and enables a user by email, and changes a role by id', async () => {
    await aUser('admin');
    const email = await aUser('member');
    const disabled = await vigil('user', 'disable', email.toUpperCase());
    expect(disabled).toMatchObject({ code: EXIT_OK });
    expect(disabled.stdout).toContain(
      `Disabled ${email}. Their sessions have ended; sign-in is refused.`,
    );
    const users = createUserService(sql);
    expect(await users.verifyCredentials(email, 'a long enough password')).toBeNull();
    expect((await vigil('user', 'enable', email)).stdout).toContain(`Enabled ${email}.`);
    expect(await users.verifyCredentials(email, 'a long enough password')).not.toBeNull();
    const { id } = (await users.findByEmail(email))!;
    const promoted = await vigil('user', 'role', id, 'admin');
    expect(promoted.stdout).toContain(
      `${email} is now Workspace admin. Their sessions have ended.`,
    );
    expect((await users.findById(id))?.role).toBe('admin');
  });

  it('refuses to leave no active admin, saying why, and changes nothing', async () => {
    await sql.query("UPDATE users SET role = 'member' WHERE role = 'admin'");
    const admin = await aUser('admin');
    for (const argv of [
      ['user', 'disable', admin],
      ['user', 'role', admin, 'member'],
      ['user', 'delete', admin],
    ]) {
      const run = await vigil(...argv);
      expect(run.code).toBe(EXIT_FAILED);
      expect(run.stderr).toContain(`${admin} is the last active workspace admin`);
      expect(run.stderr).toContain('Make another user an admin first.');
    }
    const badRole = await vigil('user', 'role', admin, 'owner');
    expect(badRole.code).toBe(EXIT_USAGE);
    expect(badRole.stderr).toContain('--role: must be admin or member');
    const unknown = await vigil('user', 'disable', 'nobody@example.com');
    expect(unknown.code).toBe(EXIT_FAILED);
    expect(unknown.stderr).toContain('No user with email nobody@example.com');
  });

  it('prints a one-time reset link once, which sets a new password once', async () => {
    const email = await aUser('member');
    const run = await vigil('user', 'reset-password', email);
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toContain(`Password reset link for ${email} (shown once; valid until`);
    const token = new RegExp(`^ {2}${APP_URL}/reset-password/([A-Za-z0-9_-]{43})$`, 'm').exec(
      run.stdout,
    )![1];
    const users = createUserService(sql);
    await users.completeLink(token, 'a brand new password');
    expect(await users.verifyCredentials(email, 'a brand new password')).not.toBeNull();
    await expect(users.completeLink(token, 'yet another password')).rejects.toMatchObject({
      code: 'reset_link_used',
    });
  });

  it('invites a user with a link, and deletes a user', async () => {
    await aUser('admin');
    const email = `invited-${randomUUID()}@example.com`;
    const invited = await vigil(
      'user',
      'invite',
      '--email',
      email,
      '--name',
      'I',
      '--role',
      'member',
    );
    expect(invited.code).toBe(EXIT_OK);
    expect(invited.stdout).toMatch(new RegExp(`${APP_URL}/invitation/[A-Za-z0-9_-]{43}`));
    expect(
      (await vigil('user', 'list')).stdout.split('\n').find((l) => l.includes(email)),
    ).toContain('Invited');
    expect((await vigil('user', 'delete', email)).stdout).toContain(`Deleted user`);
    expect((await vigil('user', 'list')).stdout).not.toContain(email);
  });

  it('records every change in the audit log under the operator, readable with audit list', async () => {
    const email = await aUser('member');
    await vigil('user', 'disable', email);
    const token = await vigil('token', 'create', '--name', 'Audited', '--preset', 'read', '--json');
    const { id } = JSON.parse(token.stdout);
    await vigil('token', 'delete', id);

    const listed = await vigil('audit', 'list', '--since', '1h');
    expect(listed.code).toBe(EXIT_OK);
    expect(listed.stdout).toMatch(/^TIME +ACTOR +ACTION +TARGET +ADDRESS +DETAILS/);
    expect(listed.stdout).toContain(`operator:${operatorName()}`);
    expect(listed.stdout).toMatch(/token\.deleted +api_token:/);
    expect(listed.stdout).toMatch(/user\.disabled +user:/);
    expect(listed.stdout).not.toMatch(/vgk1-/);

    const json = JSON.parse((await vigil('audit', 'list', '--action', 'token.', '--json')).stdout);
    expect(json.events.map((e: { action: string }) => e.action).slice(0, 2)).toEqual([
      'token.deleted',
      'token.created',
    ]);
    expect(json.events[1].details).toMatchObject({ name: 'Audited' });

    const paged = await vigil('audit', 'list', '--limit', '1');
    expect(paged.stdout).toMatch(/More events: add --cursor \S+/);
    const cursor = /--cursor (\S+)/.exec(paged.stdout)![1];
    expect((await vigil('audit', 'list', '--limit', '1', '--cursor', cursor)).code).toBe(EXIT_OK);

    const future = await vigil('audit', 'list', '--since', '2999-01-01');
    expect(future.stdout).toBe('No audit events.\n');
    const badSince = await vigil('audit', 'list', '--since', 'yesterday');
    expect(badSince.code).toBe(EXIT_USAGE);
    expect(badSince.stderr).toContain('"yesterday" is not a time; use for example 7d');
    const badAction = await vigil('audit', 'list', '--action', 'DROP TABLE');
    expect(badAction.code).toBe(EXIT_USAGE);
    expect(badAction.stderr).toContain(
      '--action: The action must be an action such as user.disabled',
    );
  });
});
