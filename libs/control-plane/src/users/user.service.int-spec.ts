import { randomUUID } from 'node:crypto';
import { createPgSqlClient } from '../sql/pg-sql-client';
import { runMigrations } from '../sql/run-migrations';
import { type SqlClient } from '../sql/sql-client';
import { createUserService } from './create-user-service';
import { type UserService } from './user.service';

let sql: SqlClient;
let users: UserService;

beforeAll(async () => {
  sql = createPgSqlClient(process.env.DATABASE_URL!, 4);
  await runMigrations(sql);
  users = createUserService(sql);
});
afterAll(() => sql.close());

function anEmail(): string {
  return `user-${randomUUID()}@Example.com`;
}

describe('UserService on PostgreSQL', () => {
  it('stores an argon2id hash, never the password, and the email lowercased', async () => {
    const email = anEmail();
    const user = await users.createUser({
      email,
      name: 'Grace',
      role: 'member',
      password: 'a long enough secret',
    });
    expect(user).toMatchObject({ email: email.toLowerCase(), name: 'Grace', role: 'member' });
    const { rows } = await sql.query<{ password_hash: string }>(
      'SELECT password_hash FROM users WHERE id = $1',
      [user.id],
    );
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0].password_hash).not.toContain('a long enough secret');
  });

  it('signs in with the right password, whatever the case of the email', async () => {
    const email = anEmail();
    const user = await users.createUser({
      email,
      name: 'Ada',
      role: 'admin',
      password: 'right password 1',
    });
    expect(await users.verifyCredentials(email.toUpperCase(), 'right password 1')).toEqual(user);
    expect(await users.verifyCredentials(email, 'wrong password 1')).toBeNull();
    expect(await users.verifyCredentials(anEmail(), 'right password 1')).toBeNull();
  });

  it('refuses a second user with the same email', async () => {
    const email = anEmail();
    const command = { email, name: 'A', role: 'member', password: 'another password' };
    await users.createUser(command);
    await expect(
      users.createUser({ ...command, email: email.toUpperCase() }),
    ).rejects.toMatchObject({
      code: 'email_taken',
      details: [{ field: 'email', message: 'is already taken' }],
    });
  });

  it('does not sign in a disabled user', async () => {
    const email = anEmail();
    const user = await users.createUser({
      email,
      name: 'Gone',
      role: 'member',
      password: 'a long enough secret',
    });
    await sql.query('UPDATE users SET disabled_at = now() WHERE id = $1', [user.id]);
    expect(await users.verifyCredentials(email, 'a long enough secret')).toBeNull();
  });

  it('creates the initial admin only while there is no user at all', async () => {
    // Other tests of this file have created users already.
    await users.createUser({
      email: anEmail(),
      name: 'Someone',
      role: 'member',
      password: 'a long enough secret',
    });
    expect(
      await users.ensureInitialAdmin({
        email: anEmail(),
        name: 'Admin',
        password: 'a long enough secret',
      }),
    ).toBeNull();
  });
});
