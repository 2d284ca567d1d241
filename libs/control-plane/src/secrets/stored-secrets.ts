import { type ControlPlaneLogger, type SqlClient, type SqlExecutor } from '../sql/sql-client';
import { SEALED_COLUMNS, sealingContext, type SealedColumn } from './sealed-columns';
import { isSealed, keyIdOfSealed, type SecretBox } from './secret-box';
import { SecretsKeyError } from './secrets-key-error';

interface StoredRow {
  id: string;
  value: string;
}

async function rowsOf(sql: SqlExecutor, { table, column }: SealedColumn, lock = false) {
  const { rows } = await sql.query<StoredRow>(
    `SELECT id::text AS id, ${column} AS value FROM ${table} WHERE ${column} IS NOT NULL
     ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
  );
  return rows;
}

/**
 * Seals the secrets still stored in plaintext (written before encryption at rest, or by a
 * writer without the key) under `box`. Each row is a compare-and-set on its plaintext, so
 * instances starting together seal each value once and never seal a sealed one. Returns how
 * many values it sealed. Their plaintext may survive in database files written earlier; the
 * log line says to rotate those providers' secrets.
 */
export async function sealPlaintextSecrets(
  sql: SqlClient,
  box: SecretBox,
  logger?: ControlPlaneLogger,
): Promise<number> {
  let sealed = 0;
  const changedTables = new Set<string>();
  for (const column of SEALED_COLUMNS) {
    for (const row of await rowsOf(sql, column)) {
      if (isSealed(row.value)) continue;
      const { rowCount } = await sql.query(
        `UPDATE ${column.table} SET ${column.column} = $3 WHERE id = $1 AND ${column.column} = $2`,
        [row.id, row.value, box.seal(row.value, sealingContext(column.table, row.id))],
      );
      sealed += rowCount;
      if (rowCount > 0) changedTables.add(column.table);
    }
  }
  if (sealed > 0) {
    // Rewrites the tables, so the replaced plaintext rows leave their data files.
    for (const table of changedTables) {
      await sql.exec(`VACUUM FULL ${table}`).catch((error: unknown) => {
        logger?.warn({ err: error, table }, 'could not compact a table after sealing its secrets');
      });
    }
    logger?.warn(
      { sealed },
      'sealed webhook secrets stored in plaintext; older database files and WAL may still hold ' +
        'them: rotate those providers’ secrets',
    );
  }
  return sealed;
}

/**
 * Refuses to go on when stored secrets were sealed under another key than `box`'s: a process
 * with the wrong key would fail every webhook delivery, so it says so at start-up instead.
 */
export async function assertKeyOpensStoredSecrets(sql: SqlExecutor, box: SecretBox): Promise<void> {
  const others = new Set<string>();
  for (const column of SEALED_COLUMNS) {
    const { rows } = await sql.query<{ key_id: string }>(
      `SELECT DISTINCT split_part(${column.column}, ':', 2) AS key_id FROM ${column.table}
       WHERE ${column.column} LIKE 'v1:%'`,
    );
    for (const { key_id: keyId } of rows) if (keyId !== box.keyId) others.add(keyId);
  }
  if (others.size > 0) {
    throw new SecretsKeyError(
      `Stored webhook secrets are sealed under key ${[...others].join(', ')}, but the ` +
        `configured secrets key is ${box.keyId}. Configure the key they were sealed with ` +
        '(VIGIL_SECRETS_KEY or VIGIL_SECRETS_KEY_FILE); to change keys, run ' +
        '`vigil secrets rotate-key` with both.',
    );
  }
}

export interface KeyRotationReport {
  /** Values re-sealed under the new key. */
  readonly resealed: number;
  /** Values already under the new key (an earlier run), left as they were. */
  readonly alreadyNew: number;
}

/**
 * Re-seals every stored secret under `to` in one transaction: each value is opened with `from`
 * (a plaintext left from before encryption is sealed directly) and sealed again. Either every
 * value moves to the new key or none does. Rows are locked while it runs.
 */
export async function resealStoredSecrets(
  sql: SqlClient,
  from: SecretBox,
  to: SecretBox,
): Promise<KeyRotationReport> {
  if (from.keyId === to.keyId) {
    throw new SecretsKeyError(
      `The new secrets key is the configured one (key ${to.keyId}); give a different key`,
    );
  }
  return sql.transaction(async (tx) => {
    let resealed = 0;
    let alreadyNew = 0;
    for (const column of SEALED_COLUMNS) {
      for (const row of await rowsOf(tx, column, true)) {
        if (keyIdOfSealed(row.value) === to.keyId) {
          alreadyNew += 1;
          continue;
        }
        const context = sealingContext(column.table, row.id);
        const plaintext = isSealed(row.value) ? from.open(row.value, context) : row.value;
        await tx.query(`UPDATE ${column.table} SET ${column.column} = $2 WHERE id = $1`, [
          row.id,
          to.seal(plaintext, context),
        ]);
        resealed += 1;
      }
    }
    return { resealed, alreadyNew };
  });
}

/** How long after migration 0010 the stored secrets may be held to ciphertext only. */
export const SEALED_ONLY_GRACE_MS = 24 * 60 * 60 * 1000;

/** What `requireSealedSecrets` did (see migration 0010). */
export type SealedOnlyOutcome = 'narrowed' | 'already' | 'too_soon' | 'plaintext_remains';

/**
 * Holds the stored secrets to ciphertext only (`v1:…`) once no plaintext remains and `graceMs`
 * has passed since migration 0010, so no writer of a release without the key is left to refuse.
 */
export async function requireSealedSecrets(
  sql: SqlExecutor,
  graceMs: number = SEALED_ONLY_GRACE_MS,
): Promise<SealedOnlyOutcome> {
  const { rows } = await sql.query<{ outcome: SealedOnlyOutcome }>(
    'SELECT require_sealed_webhook_secrets(make_interval(secs => $1::double precision / 1000)) AS outcome',
    [graceMs],
  );
  return rows[0].outcome;
}

/**
 * The start-up of an app that holds the secrets key: refuse a key that does not open the stored
 * secrets, seal those still in plaintext, then hold the table to ciphertext only when it can.
 */
export async function prepareStoredSecrets(
  sql: SqlClient,
  box: SecretBox,
  logger?: ControlPlaneLogger,
): Promise<void> {
  await assertKeyOpensStoredSecrets(sql, box);
  await sealPlaintextSecrets(sql, box, logger);
  const outcome = await requireSealedSecrets(sql);
  if (outcome === 'narrowed') {
    logger?.info({}, 'webhook secrets are held to ciphertext only from now on');
  }
}
