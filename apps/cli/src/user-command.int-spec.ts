import { randomUUID } from 'node:crypto';
import { createPgSqlClient, createUserService } from '@vigil/control-plane';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from './cli';

async function vigil(stdin: string | undefined, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: { DATABASE_URL: process.env.DATABASE_URL },
    stdin: stdin === undefined ? undefined : async () => stdin,
  });
  return { code, stdout, stderr };
}

describe('vigil user create (CLI) on PostgreSQL', () => {
  it('creates a user whose piped password signs in', async () => {
    const email = `Operator-${randomUUID()}@Example.com`;
    const run = await vigil(
      'piped secret password\n',
      'user',
      'create',
      '--email',
      email,
      '--name',
      'Olive Operator',
      '--role',
      'admin',
      '--password-stdin',
    );
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toMatch(
      new RegExp(`^Created user [0-9a-f-]{36} ${email.toLowerCase()} \\(Workspace admin\\)\\.`),
    );
    const sql = createPgSqlClient(process.env.DATABASE_URL!, 1);
    try {
      const user = await createUserService(sql).verifyCredentials(email, 'piped secret password');
      expect(user).toMatchObject({ name: 'Olive Operator', role: 'admin' });
    } finally {
      await sql.close();
    }
  });

  it('names each bad option, refuses a taken email, and never takes the password as an argument', async () => {
    const bad = await vigil(
      'short',
      'user',
      'create',
      '--email',
      'not-an-email',
      '--name',
      'X',
      '--role',
      'owner',
      '--password-stdin',
    );
    expect(bad.code).toBe(EXIT_USAGE);
    expect(bad.stderr).toContain('--email: must be an email address');
    expect(bad.stderr).toContain('--role: must be admin or member');
    expect(bad.stderr).toContain('--password-stdin: must be at least 12 characters');

    const email = `taken-${randomUUID()}@example.com`;
    const args = ['user', 'create', '--email', email, '--name', 'T', '--role', 'member'];
    expect((await vigil('long enough password', ...args, '--password-stdin')).code).toBe(EXIT_OK);
    const taken = await vigil('long enough password', ...args, '--password-stdin');
    expect(taken.code).toBe(EXIT_FAILED);
    expect(taken.stderr).toContain(`A user with email ${email} already exists`);

    const noStdin = await vigil('long enough password', ...args);
    expect(noStdin.code).toBe(EXIT_USAGE);
    expect(noStdin.stderr).toContain("required option '--password-stdin' not specified");
  });
});
