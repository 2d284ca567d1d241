import { randomUUID } from 'node:crypto';
import { operatorActor, type AuditContext } from '../audit/audit-event';
import { SqlAuditLog } from '../audit/sql-audit-log';
import { createSessionService } from '../sessions/create-session-service';
import { createPgSqlClient } from '../sql/pg-sql-client';
import { runMigrations } from '../sql/run-migrations';
import { type SqlClient } from '../sql/sql-client';
import { type PasswordHasher } from './password-hasher';
import { type UserRecord, type UserRole } from './user';
import { UserService } from './user.service';

const HOUR = 60 * 60 * 1000;
const operator: AuditContext = { actor: operatorActor('ops-alice'), requestId: 'req-1' };
/** A fast stand-in for argon2: these tests are about the lifecycle, not the hash. */
const plainHasher: PasswordHasher = {
  hash: async (password) => `plain:${password}`,
  verify: async (hash, password) => hash === `plain:${password}`,
};

let sql: SqlClient;
let now = new Date();
let users: UserService;

beforeAll(async () => {
  sql = createPgSqlClient(process.env.DATABASE_URL!, 8);
  await runMigrations(sql);
  users = new UserService(sql, { hasher: plainHasher, clock: () => now });
});
afterAll(() => sql.close());
beforeEach(async () => {
  now = new Date();
  // Each test starts from a workspace without users; the audit log keeps what it recorded.
  await sql.query('DELETE FROM users');
});

function aUser(role: UserRole = 'member', password = 'a long enough secret') {
  return users.createUser({ email: `u-${randomUUID()}@example.com`, name: 'U', role, password });
}

async function auditOf(user: UserRecord) {
  const { events } = await new SqlAuditLog(sql).list({ targetId: user.id });
  return events.map((e) => e.action);
}

describe('UserService lifecycle on PostgreSQL', () => {
  it('lists users by email with their status', async () => {
    const admin = await aUser('admin');
    const { user: invited } = await users.inviteUser(
      { email: 'a-invited@example.com', name: 'Invitee', role: 'member' },
      operator,
    );
    const listed = await users.list();
    expect(listed.map((u) => [u.email, u.status, u.hasPassword])).toEqual(
      [
        [invited.email, 'invited', false],
        [admin.email, 'active', true],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  });

  it('changes a role, ends the user’s sessions, and records before and after', async () => {
    await aUser('admin');
    const member = await aUser('member');
    const sessions = createSessionService(sql);
    const { token } = await sessions.startSession(member);
    const changed = await users.changeRole(member.id, 'admin', operator);
    expect(changed.role).toBe('admin');
    expect(await sessions.resolve(token)).toBeNull();
    const [event] = (
      await new SqlAuditLog(sql).list({ targetId: member.id, action: 'user.role_changed' })
    ).events;
    expect(event).toMatchObject({
      actor: { type: 'operator', label: 'ops-alice' },
      requestId: 'req-1',
      details: { before: 'member', after: 'admin', email: member.email },
    });
  });

  it('never demotes, disables or deletes the last active admin', async () => {
    const admin = await aUser('admin');
    await aUser('member');
    for (const change of [
      () => users.changeRole(admin.id, 'member', operator),
      () => users.disable(admin.id, operator),
      () => users.delete(admin.id, operator),
    ]) {
      await expect(change()).rejects.toMatchObject({
        code: 'last_admin',
        message: expect.stringContaining(`${admin.email} is the last active workspace admin`),
      });
    }
    expect((await users.findById(admin.id))?.role).toBe('admin');
    expect(await auditOf(admin)).toEqual([]);
  });

  it('lets only one of two concurrent demotions of the last two admins pass', async () => {
    for (let round = 0; round < 5; round += 1) {
      await sql.query('DELETE FROM users');
      const [a, b] = await Promise.all([aUser('admin'), aUser('admin')]);
      const results = await Promise.allSettled([
        users.changeRole(a.id, 'member', operator),
        users.disable(b.id, operator),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(rejected.reason).toMatchObject({ code: 'last_admin' });
      const { rows } = await sql.query<{ count: string }>(
        "SELECT count(*) AS count FROM users WHERE role = 'admin' AND disabled_at IS NULL",
      );
      expect(Number(rows[0].count)).toBe(1);
    }
  });

  it('disables a user: sessions end, sign-in is refused, until enabled again', async () => {
    await aUser('admin');
    const member = await aUser('member', 'member password 1');
    const sessions = createSessionService(sql);
    const { token } = await sessions.startSession(member);
    await users.disable(member.id, operator);
    expect(await sessions.resolve(token)).toBeNull();
    expect(await users.verifyCredentials(member.email, 'member password 1')).toBeNull();
    await users.enable(member.id, operator);
    expect(await users.verifyCredentials(member.email, 'member password 1')).toMatchObject({
      id: member.id,
    });
    expect(await auditOf(member)).toEqual(['user.enabled', 'user.disabled']);
  });

  it('deletes a user with their sessions, and says when there is no such user', async () => {
    await aUser('admin');
    const member = await aUser('member');
    await createSessionService(sql).startSession(member);
    await users.delete(member.id, operator);
    expect(await users.findById(member.id)).toBeNull();
    const { rows } = await sql.query('SELECT 1 FROM sessions WHERE user_id = $1', [member.id]);
    expect(rows).toHaveLength(0);
    expect(await auditOf(member)).toEqual(['user.deleted']);
    await expect(users.disable(member.id, operator)).rejects.toMatchObject({ code: 'not_found' });
    await expect(users.enable('not-a-uuid', operator)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('resets a password with a one-time link: stored hashed, used once, sessions end', async () => {
    await aUser('admin');
    const member = await aUser('member', 'the old password');
    const { token: session } = await createSessionService(sql).startSession(member);
    const link = await users.issuePasswordReset(member.id, operator);
    expect(link).toMatchObject({ purpose: 'password_reset', email: member.email });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.expiresAt.getTime() - now.getTime()).toBe(24 * HOUR);
    const { rows } = await sql.query("SELECT encode(token_hash, 'hex') AS h FROM user_tokens");
    expect(JSON.stringify(rows)).not.toContain(link.token);
    expect(await users.describeLink(link.token)).toMatchObject({
      purpose: 'password_reset',
      email: member.email,
    });
    await users.completeLink(link.token, 'the new password', { address: '203.0.113.9' });
    expect(await users.verifyCredentials(member.email, 'the old password')).toBeNull();
    expect(await users.verifyCredentials(member.email, 'the new password')).not.toBeNull();
    expect(await createSessionService(sql).resolve(session)).toBeNull();
    await expect(users.completeLink(link.token, 'another password')).rejects.toMatchObject({
      code: 'reset_link_used',
    });
    const [event] = (
      await new SqlAuditLog(sql).list({ action: 'user.password_reset', targetId: member.id })
    ).events;
    expect(event).toMatchObject({
      actor: { type: 'user', id: member.id, label: member.email },
      address: '203.0.113.9',
    });
  });

  it('refuses an expired, superseded, unknown or malformed link and changes nothing', async () => {
    await aUser('admin');
    const member = await aUser('member', 'the old password');
    const first = await users.issuePasswordReset(member.id, operator);
    const second = await users.issuePasswordReset(member.id, operator);
    await expect(users.completeLink(first.token, 'the new password')).rejects.toMatchObject({
      code: 'reset_link_superseded',
    });
    now = new Date(now.getTime() + 25 * HOUR);
    await expect(users.completeLink(second.token, 'the new password')).rejects.toMatchObject({
      code: 'reset_link_expired',
      message: expect.stringMatching(/^This password reset link expired at /),
    });
    await expect(users.describeLink(second.token)).rejects.toMatchObject({
      code: 'reset_link_expired',
    });
    await expect(users.completeLink('A'.repeat(43), 'the new password')).rejects.toMatchObject({
      code: 'reset_link_invalid',
    });
    await expect(users.completeLink('short', 'the new password')).rejects.toMatchObject({
      code: 'reset_link_invalid',
    });
    await expect(users.completeLink(second.token, 'short')).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(await users.verifyCredentials(member.email, 'the old password')).not.toBeNull();
  });

  it('refuses a reset for a disabled user', async () => {
    await aUser('admin');
    const member = await aUser('member');
    await users.disable(member.id, operator);
    await expect(users.issuePasswordReset(member.id, operator)).rejects.toMatchObject({
      code: 'user_disabled',
    });
  });

  it('invites a user who cannot sign in until they choose a password through the link', async () => {
    const { user, link } = await users.inviteUser(
      { email: 'New@Example.com', name: 'New', role: 'member' },
      operator,
    );
    expect(user.email).toBe('new@example.com');
    expect(link.expiresAt.getTime() - now.getTime()).toBe(7 * 24 * HOUR);
    expect(await users.verifyCredentials('new@example.com', 'x'.repeat(12))).toBeNull();
    await users.completeLink(link.token, 'my own password');
    expect(await users.verifyCredentials('new@example.com', 'my own password')).toMatchObject({
      id: user.id,
    });
    expect(await auditOf(user)).toEqual(['user.invitation_accepted', 'user.invited']);
    await expect(
      users.inviteUser({ email: 'new@example.com', name: 'Again', role: 'member' }, operator),
    ).rejects.toMatchObject({ code: 'email_taken' });
  });

  describe('single sign-on identities', () => {
    const identity = (subject: string, email: string, emailVerified = true) => ({
      issuer: 'https://idp.example.com',
      subject,
      email,
      emailVerified,
      name: 'Sso User',
    });

    it('links an existing user by verified email, then finds them by subject', async () => {
      const member = await aUser('member');
      const linked = await users.resolveIdentity(identity('sub-1', member.email.toUpperCase()), {
        role: null,
      });
      expect(linked).toEqual(member);
      // The provider may change the email later: the subject still finds the user.
      expect(
        await users.resolveIdentity(identity('sub-1', 'changed@example.com'), { role: null }),
      ).toEqual(member);
      expect(await auditOf(member)).toContain('user.identity_linked');
      await expect(
        users.resolveIdentity(identity('sub-2', member.email), { role: null }),
      ).rejects.toMatchObject({ code: 'identity_conflict' });
    });

    it('creates an unknown user with the provisioning role, or refuses without one', async () => {
      await expect(
        users.resolveIdentity(identity('sub-3', 'jit@example.com'), { role: null }),
      ).rejects.toMatchObject({ code: 'not_provisioned' });
      await expect(
        users.resolveIdentity(identity('sub-3', 'jit@example.com', false), { role: 'member' }),
      ).rejects.toMatchObject({ code: 'not_provisioned' });
      const created = await users.resolveIdentity(identity('sub-3', 'jit@example.com'), {
        role: 'member',
      });
      expect(created).toMatchObject({ email: 'jit@example.com', name: 'Sso User', role: 'member' });
      expect((await users.list()).find((u) => u.id === created.id)).toMatchObject({
        status: 'active',
        hasPassword: false,
        singleSignOn: true,
      });
      expect(await users.verifyCredentials('jit@example.com', 'x'.repeat(12))).toBeNull();
    });

    it('refuses a disabled user', async () => {
      await aUser('admin');
      const member = await aUser('member');
      await users.resolveIdentity(identity('sub-4', member.email), { role: null });
      await users.disable(member.id, operator);
      await expect(
        users.resolveIdentity(identity('sub-4', member.email), { role: null }),
      ).rejects.toMatchObject({ code: 'user_disabled' });
    });
  });
});
