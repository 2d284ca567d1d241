import { createHash } from 'node:crypto';
import { controlPlaneMigrations, type Migration } from '../../migrations';
import { silentLogger, type ControlPlaneLogger, type SqlClient } from './sql-client';

/**
 * Key of the transaction-level advisory lock that serializes runners: several apps start at
 * once against the same database, and only one may apply a given migration.
 */
const MIGRATION_LOCK_KEY = '7236485513041850377';
const ID_FORMAT = /^\d{4}_[a-z0-9_]+$/;

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

export interface RunMigrationsOptions {
  readonly migrations?: readonly Migration[];
  readonly logger?: ControlPlaneLogger;
  /** Table recording what was applied (default `schema_migrations`); one per migration set. */
  readonly ledgerTable?: string;
}

export interface MigrationReport {
  /** Ids this call applied; empty when the schema was already current. */
  readonly applied: string[];
}

function checksumOf(migration: Migration): string {
  return createHash('sha256').update(migration.sql, 'utf8').digest('hex');
}

function checkList(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (!ID_FORMAT.test(m.id)) throw new MigrationError(`Migration id ${m.id} is not NNNN_name`);
    if (i > 0 && migrations[i - 1].id >= m.id) {
      throw new MigrationError(`Migration ${m.id} is out of order or duplicated`);
    }
  });
}

/**
 * Brings the schema up to date. Each migration runs in its own transaction together with its
 * row in `schema_migrations`, under `pg_advisory_xact_lock`, and is re-checked after the lock is
 * taken, so concurrent runners apply each migration exactly once and a crash leaves no
 * half-applied migration. Running it again is a no-op. A migration whose SQL changed after it
 * was applied is refused.
 */
export async function runMigrations(
  client: SqlClient,
  options: RunMigrationsOptions = {},
): Promise<MigrationReport> {
  const migrations = options.migrations ?? controlPlaneMigrations;
  const logger = options.logger ?? silentLogger;
  const ledger = options.ledgerTable ?? 'schema_migrations';
  if (!/^[a-z_][a-z0-9_]*$/.test(ledger)) throw new MigrationError(`Bad ledger table ${ledger}`);
  checkList(migrations);

  const applied: string[] = [];
  for (const migration of migrations) {
    const checksum = checksumOf(migration);
    const didApply = await client.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
      await tx.exec(`CREATE TABLE IF NOT EXISTS ${ledger} (
        id         text        PRIMARY KEY,
        checksum   text        NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const existing = await tx.query<{ checksum: string }>(
        `SELECT checksum FROM ${ledger} WHERE id = $1`,
        [migration.id],
      );
      if (existing.rows.length > 0) {
        if (existing.rows[0].checksum !== checksum) {
          throw new MigrationError(
            `Migration ${migration.id} was changed after it was applied; add a new migration instead`,
          );
        }
        return false;
      }
      await tx.exec(migration.sql);
      await tx.query(`INSERT INTO ${ledger} (id, checksum) VALUES ($1, $2)`, [
        migration.id,
        checksum,
      ]);
      return true;
    });
    if (didApply) {
      applied.push(migration.id);
      logger.info({ migration: migration.id }, 'applied migration');
    }
  }
  return { applied };
}
