import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiTokenService, createPgSqlClient } from '@vigil/control-plane';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from './cli';

async function vigil(...argv: string[]) {
  return vigilWith({ DATABASE_URL: process.env.DATABASE_URL }, ...argv);
}

async function vigilWith(env: Record<string, string | undefined>, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env,
  });
  return { code, stdout, stderr };
}

describe('vigil token (CLI) on PostgreSQL', () => {
  it('creates a token, prints its value once, and the value authenticates', async () => {
    const run = await vigil(
      'token',
      'create',
      '--name',
      'CLI export',
      '--scope',
      'detection:read',
      '--scope',
      'admin:write',
      '--expires',
      '30d',
    );
    expect(run.code).toBe(EXIT_OK);
    expect(run.stdout).toMatch(/Created API token [0-9a-f-]{36} "CLI export"/);
    expect(run.stdout).toMatch(/Scopes: +admin:write, detection:read/);
    const value = /^ {2}(vgk1-\S+)$/m.exec(run.stdout)![1];
    const expires = new Date(/Expires at: (\S+)/.exec(run.stdout)![1]);
    expect(Math.abs(expires.getTime() - Date.now() - 30 * 86_400_000)).toBeLessThan(60_000);

    const sql = createPgSqlClient(process.env.DATABASE_URL!, 1);
    try {
      const result = await createApiTokenService(sql).authenticate(value);
      expect(result.ok && result.principal.name).toBe('CLI export');
    } finally {
      await sql.close();
    }
  });

  it('lists and deletes tokens', async () => {
    const created = await vigil(
      'token',
      'create',
      '--name',
      'To delete',
      '--preset',
      'read',
      '--json',
    );
    expect(created.code).toBe(EXIT_OK);
    const { id, value, state } = JSON.parse(created.stdout);
    expect(state).toBe('active');

    const listed = await vigil('token', 'list');
    expect(listed.code).toBe(EXIT_OK);
    expect(listed.stdout).toMatch(/^ID +NAME +STATE +CREATED +LAST USED +EXPIRES +LAST FOUR/);
    const row = listed.stdout.split('\n').find((line) => line.startsWith(id))!;
    expect(row).toContain('To delete');
    expect(row).toContain('Active');
    expect(row).toContain(`…${value.slice(-4)}`);
    expect(listed.stdout).not.toContain(value);

    const deleted = await vigil('token', 'delete', id);
    expect(deleted).toMatchObject({ code: EXIT_OK });
    expect((await vigil('token', 'list')).stdout).not.toContain(id);

    const again = await vigil('token', 'delete', id);
    expect(again.code).toBe(EXIT_FAILED);
    expect(again.stderr).toContain(`No API token with id ${id}`);
  });

  it('refuses bad input with exit code 2 and a message naming the option', async () => {
    const badScope = await vigil('token', 'create', '--name', 'x', '--scope', 'detections:read');
    expect(badScope.code).toBe(EXIT_USAGE);
    expect(badScope.stderr).toContain('unknown scope "detections"');

    const noScope = await vigil('token', 'create', '--name', 'x');
    expect(noScope.code).toBe(EXIT_USAGE);
    expect(noScope.stderr).toContain('--scope/--preset: at least one scope must be above None');

    const tooLong = await vigil(
      'token',
      'create',
      '--name',
      'x',
      '--scope',
      'risk:read',
      '--expires',
      '400d',
    );
    expect(tooLong.code).toBe(EXIT_USAGE);
    expect(tooLong.stderr).toContain('--expires: must be a whole number of days from 1 to 365');

    const past = await vigil(
      'token',
      'create',
      '--name',
      'x',
      '--scope',
      'risk:read',
      '--expires',
      '2020-01-01',
    );
    expect(past.code).toBe(EXIT_USAGE);
    expect(past.stderr).toContain('--expires: must be in the future');

    const noName = await vigil('token', 'create', '--scope', 'risk:read');
    expect(noName.code).toBe(EXIT_USAGE);
    expect(noName.stderr).toContain("required option '--name <name>' not specified");

    expect((await vigil('token', 'rename')).code).toBe(EXIT_USAGE);
  });

  it('names a wrong DATABASE_URL, an unreachable database and an embedded one in use', async () => {
    const wrong = await vigilWith({ DATABASE_URL: 'mysql://x' }, 'token', 'list');
    expect(wrong.code).toBe(EXIT_USAGE);
    expect(wrong.stderr).toContain('DATABASE_URL="mysql://x" is invalid');

    // Without DATABASE_URL the CLI opens the embedded database, which a running Vigil holds.
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-cli-'));
    writeFileSync(join(dataDir, 'postgres.lock'), '1');
    const held = await vigilWith({ VIGIL_DATA_DIR: dataDir }, 'token', 'list');
    expect(held.code).toBe(EXIT_FAILED);
    expect(held.stderr).toContain('is in use by another Vigil process (pid 1)');
    rmSync(dataDir, { recursive: true, force: true });

    const down = await vigilWith(
      { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/vigil' },
      'token',
      'list',
    );
    expect(down.code).toBe(EXIT_FAILED);
    expect(down.stderr).toContain('Cannot reach the database');
  });
});
