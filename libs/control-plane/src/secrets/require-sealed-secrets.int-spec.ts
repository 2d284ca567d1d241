import { randomUUID } from 'node:crypto';
import { createPgSqlClient } from '../sql/pg-sql-client';
import { openPgliteSqlClient } from '../sql/pglite-sql-client';
import { runMigrations } from '../sql/run-migrations';
import { type SqlClient, type SqlExecutor } from '../sql/sql-client';
import { sealingContext } from './sealed-columns';
import { SecretBox } from './secret-box';
import { SEALED_ONLY_GRACE_MS, requireSealedSecrets } from './stored-secrets';

// Opening PGlite and running every migration takes seconds on a busy machine.
jest.setTimeout(60_000);

const box = new SecretBox(Buffer.alloc(32, 9));
class RolledBack extends Error {}

describe.each([
  ['PostgreSQL', () => createPgSqlClient(process.env.DATABASE_URL!, 2)],
  ['PGlite', () => openPgliteSqlClient('memory://')],
])('holding webhook secrets to ciphertext only, on %s', (_name, open) => {
  let sql: SqlClient;

  beforeAll(async () => {
    sql = await open();
    await runMigrations(sql);
  });
  afterAll(() => sql.close());

  /**
   * Runs `work` in a transaction that is rolled back, so the shared test database keeps
   * accepting the plaintext secrets other tests write as a writer without the key.
   */
  async function inRolledBack(work: (tx: SqlExecutor) => Promise<void>): Promise<void> {
    await sql
      .transaction(async (tx) => {
        await tx.exec('DELETE FROM webhook_providers');
        await work(tx);
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
  }

  async function insert(tx: SqlExecutor, secret: (id: string) => string): Promise<string> {
    const id = randomUUID();
    await tx.query(
      `INSERT INTO webhook_providers (id, name, kind, url, secret)
       VALUES ($1, 'Receiver', 'custom', 'https://hooks.example.com/h', $2)`,
      [id, secret(id)],
    );
    return id;
  }
  const sealed = (id: string) =>
    box.seal('whsec_c2VjcmV0', sealingContext('webhook_providers', id));
  const plaintext = () => 'whsec_cGxhaW50ZXh0';

  it('waits for the grace period after the migration, whatever the rows', async () => {
    await inRolledBack(async (tx) => {
      await insert(tx, sealed);
      expect(await requireSealedSecrets(tx, SEALED_ONLY_GRACE_MS)).toBe('too_soon');
      await expect(insert(tx, plaintext)).resolves.toEqual(expect.any(String));
    });
  });

  it('waits while a plaintext secret remains, current or replaced', async () => {
    await inRolledBack(async (tx) => {
      const id = await insert(tx, plaintext);
      expect(await requireSealedSecrets(tx, 0)).toBe('plaintext_remains');
      await tx.query(
        `UPDATE webhook_providers SET secret = $2, previous_secret = $3,
           previous_secret_expires_at = now() + interval '1 hour' WHERE id = $1`,
        [id, sealed(id), plaintext()],
      );
      expect(await requireSealedSecrets(tx, 0)).toBe('plaintext_remains');
    });
  });

  it('refuses plaintext from then on, once every stored secret is sealed and the grace is over', async () => {
    await inRolledBack(async (tx) => {
      const id = await insert(tx, sealed);
      await tx.query(
        `UPDATE webhook_providers SET previous_secret = $2,
           previous_secret_expires_at = now() + interval '1 hour' WHERE id = $1`,
        [id, sealed(id)],
      );
      await tx.query(
        "UPDATE schema_migrations SET applied_at = now() - interval '25 hours' WHERE id = '0012_sealed_webhook_secrets_only'",
      );
      expect(await requireSealedSecrets(tx)).toBe('narrowed');
      expect(await requireSealedSecrets(tx)).toBe('already');
      await expect(insert(tx, sealed)).resolves.toEqual(expect.any(String));
      await tx.exec('SAVEPOINT refused');
      await expect(insert(tx, plaintext)).rejects.toThrow(/webhook_providers_secret_sealed/);
      await tx.exec('ROLLBACK TO SAVEPOINT refused');
      await expect(
        tx.query('UPDATE webhook_providers SET previous_secret = $2 WHERE id = $1', [
          id,
          plaintext(),
        ]),
      ).rejects.toThrow(/webhook_providers_previous_secret_sealed/);
    });
  });
});
