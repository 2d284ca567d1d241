import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  SecretBox,
  WebhookProviderService,
  loadSecretBox,
  createPgSqlClient,
  openPgliteSqlClient,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from './cli';

async function vigil(env: Record<string, string | undefined>, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env,
  });
  return { code, stdout, stderr };
}

// The embedded case opens PGlite three times, seconds each on a busy machine.
jest.setTimeout(60_000);

const scratch = () => mkdtempSync(join(tmpdir(), 'vigil-cli-secrets-'));
const policy = { allowPrivate: true, allowlist: [] };

function keyFile(key: Buffer, mode = 0o600): string {
  const file = join(scratch(), 'new.key');
  writeFileSync(file, key.toString('base64'), { mode });
  chmodSync(file, mode);
  return file;
}

async function enrollWith(sql: SqlClient, box: SecretBox) {
  return new WebhookProviderService(sql, { policy, secrets: box }).enroll({
    name: 'R',
    kind: 'custom',
    url: 'http://127.0.0.1:9/r',
  });
}

describe('vigil secrets rotate-key (CLI)', () => {
  it('re-encrypts every secret under the new key on PostgreSQL and says what to change', async () => {
    const oldKey = SecretBox.generateKey();
    const newKey = SecretBox.generateKey();
    const env = {
      DATABASE_URL: process.env.DATABASE_URL,
      VIGIL_SECRETS_KEY: oldKey.toString('base64'),
    };
    const sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    try {
      await runMigrations(sql);
      const { provider, secret } = await enrollWith(sql, new SecretBox(oldKey));
      const file = keyFile(newKey);
      const run = await vigil(env, 'secrets', 'rotate-key', '--new-key-file', file);
      expect(run.code).toBe(EXIT_OK);
      const next = new SecretBox(newKey);
      expect(run.stdout).toContain(`from key ${new SecretBox(oldKey).keyId} to key ${next.keyId}`);
      expect(run.stdout).toContain(`Set VIGIL_SECRETS_KEY to the new key (${file}) for every app`);
      const opened = await new WebhookProviderService(sql, { policy, secrets: next }).targets([
        provider.id,
      ]);
      expect(opened.get(provider.id)?.secret).toBe(secret);
      const audit = await vigil(env, 'audit', 'list', '--action', 'secrets.key_rotated', '--json');
      expect(JSON.parse(audit.stdout).events[0].details).toMatchObject({ toKeyId: next.keyId });

      // The old key no longer opens what is stored: said plainly, nothing changed.
      const again = await vigil(env, 'secrets', 'rotate-key', '--new-key-env', 'OTHER_KEY');
      expect(again.code).toBe(EXIT_USAGE);
      expect(again.stderr).toContain('--new-key-env: the variable OTHER_KEY is not set');
      const wrongOld = await vigil(
        { ...env, OTHER_KEY: SecretBox.generateKey().toString('hex') },
        'secrets',
        'rotate-key',
        '--new-key-env',
        'OTHER_KEY',
      );
      expect(wrongOld.code).toBe(EXIT_FAILED);
      expect(wrongOld.stderr).toContain(
        `sealed under key ${next.keyId}, but the configured key is`,
      );
    } finally {
      await sql.close();
    }
  });

  it('refuses a new key file others can read, or of the wrong length, or no new key', async () => {
    const env = {
      DATABASE_URL: process.env.DATABASE_URL,
      VIGIL_SECRETS_KEY: SecretBox.generateKey().toString('base64'),
    };
    const open = keyFile(SecretBox.generateKey(), 0o644);
    const loose = await vigil(env, 'secrets', 'rotate-key', '--new-key-file', open);
    expect(loose.code).toBe(EXIT_USAGE);
    expect(loose.stderr).toContain(
      `--new-key-file ${open} can be read or written by group or others (mode 0644)`,
    );
    const short = keyFile(Buffer.alloc(16, 1));
    const wrongLength = await vigil(env, 'secrets', 'rotate-key', '--new-key-file', short);
    expect(wrongLength.code).toBe(EXIT_USAGE);
    expect(wrongLength.stderr).toContain('does not hold a 32-byte key');
    const none = await vigil(env, 'secrets', 'rotate-key');
    expect(none.code).toBe(EXIT_USAGE);
    expect(none.stderr).toContain(
      'Give the new key with one of --new-key-file <path> and --new-key-env <VAR>',
    );
    const noOldKey = await vigil(
      { DATABASE_URL: process.env.DATABASE_URL },
      'secrets',
      'rotate-key',
      '--new-key-file',
      keyFile(SecretBox.generateKey()),
    );
    expect(noOldKey.code).toBe(EXIT_USAGE);
    expect(noOldKey.stderr).toContain(
      'No secrets key: webhook signing secrets are encrypted at rest and DATABASE_URL is set',
    );
  });

  it('replaces the generated key of the embedded data folder itself', async () => {
    const dataDir = scratch();
    const database = join(dataDir, 'postgres');
    const keyPath = join(dataDir, 'secrets.key');
    try {
      // As the notifier's first start does: the key is generated into the data folder.
      const { box } = loadSecretBox({ dataDir, sharedDatabase: false, production: false });
      const sql = await openPgliteSqlClient(database);
      let enrolled: Awaited<ReturnType<typeof enrollWith>>;
      try {
        await runMigrations(sql);
        enrolled = await enrollWith(sql, box);
      } finally {
        await sql.close();
      }
      const newKey = SecretBox.generateKey();
      const run = await vigil(
        { VIGIL_DATA_DIR: dataDir },
        'secrets',
        'rotate-key',
        '--new-key-file',
        keyFile(newKey),
      );
      expect(run.code).toBe(EXIT_OK);
      expect(run.stdout).toContain(`The embedded key file ${keyPath} now holds the new key`);
      expect(existsSync(`${keyPath}.old`)).toBe(true);
      expect(Buffer.from(readFileSync(keyPath, 'utf8').trim(), 'base64').equals(newKey)).toBe(true);
      const reopened = await openPgliteSqlClient(database);
      try {
        const targets = await new WebhookProviderService(reopened, {
          policy,
          secrets: new SecretBox(newKey),
        }).targets([enrolled.provider.id]);
        expect(targets.get(enrolled.provider.id)?.secret).toBe(enrolled.secret);
      } finally {
        await reopened.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
