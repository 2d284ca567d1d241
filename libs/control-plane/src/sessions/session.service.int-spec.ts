import { randomUUID } from 'node:crypto';
import { createPgSqlClient } from '../sql/pg-sql-client';
import { runMigrations } from '../sql/run-migrations';
import { type SqlClient } from '../sql/sql-client';
import { createUserService } from '../users/create-user-service';
import { type UserRecord } from '../users/user';
import { createSessionService } from './create-session-service';

const HOUR = 60 * 60 * 1000;
let sql: SqlClient;
let user: UserRecord;

beforeAll(async () => {
  sql = createPgSqlClient(process.env.DATABASE_URL!, 4);
  await runMigrations(sql);
  user = await createUserService(sql).createUser({
    email: `session-${randomUUID()}@example.com`,
    name: 'Session owner',
    role: 'admin',
    password: 'a long enough secret',
  });
});
afterAll(() => sql.close());

function sessionsAt(clock: () => Date) {
  return createSessionService(sql, { clock });
}

describe('SessionService on PostgreSQL', () => {
  it('opens a session whose cookie value resolves to the user and a CSRF token', async () => {
    const sessions = sessionsAt(() => new Date());
    const { token, session } = await sessions.startSession(user);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const resolved = await sessions.resolve(token);
    expect(resolved).toEqual(session);
    expect(resolved!.user).toEqual(user);
    expect(resolved!.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('stores only the SHA-256 of the cookie value', async () => {
    const { token } = await sessionsAt(() => new Date()).startSession(user);
    const { rows } = await sql.query('SELECT encode(id, $1) AS id FROM sessions', ['escape']);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('gives every sign-in a new session and ends one on sign-out', async () => {
    const sessions = sessionsAt(() => new Date());
    const first = await sessions.startSession(user);
    const second = await sessions.startSession(user);
    expect(second.token).not.toBe(first.token);
    expect(second.session.csrfToken).not.toBe(first.session.csrfToken);
    await sessions.endSession(first.token);
    expect(await sessions.resolve(first.token)).toBeNull();
    expect(await sessions.resolve(second.token)).not.toBeNull();
  });

  it('ends a session after 12 idle hours, and keeps an active one alive', async () => {
    let now = new Date(Date.now() - 48 * HOUR);
    const sessions = sessionsAt(() => now);
    const idle = await sessions.startSession(user);
    const busy = await sessions.startSession(user);
    now = new Date(now.getTime() + 11 * HOUR);
    expect(await sessions.resolve(busy.token)).not.toBeNull();
    now = new Date(now.getTime() + 2 * HOUR);
    expect(await sessions.resolve(idle.token)).toBeNull();
    expect(await sessions.resolve(busy.token)).not.toBeNull();
  });

  it('ends any session 7 days after sign-in', async () => {
    const start = new Date(Date.now() - 8 * 24 * HOUR);
    let now = start;
    const sessions = sessionsAt(() => now);
    const { token } = await sessions.startSession(user);
    // Used every 6 hours, so it never goes idle.
    for (let hours = 6; hours < 7 * 24; hours += 6) {
      now = new Date(start.getTime() + hours * HOUR);
      expect(await sessions.resolve(token)).not.toBeNull();
    }
    now = new Date(start.getTime() + 7 * 24 * HOUR);
    expect(await sessions.resolve(token)).toBeNull();
  });

  it('rejects a malformed or unknown cookie value, and a disabled user', async () => {
    const sessions = sessionsAt(() => new Date());
    expect(await sessions.resolve(undefined)).toBeNull();
    expect(await sessions.resolve('short')).toBeNull();
    expect(await sessions.resolve('A'.repeat(43))).toBeNull();
    const other = await createUserService(sql).createUser({
      email: `disabled-${randomUUID()}@example.com`,
      name: 'Disabled',
      role: 'member',
      password: 'a long enough secret',
    });
    const { token } = await sessions.startSession(other);
    await sql.query('UPDATE users SET disabled_at = now() WHERE id = $1', [other.id]);
    expect(await sessions.resolve(token)).toBeNull();
  });
});
