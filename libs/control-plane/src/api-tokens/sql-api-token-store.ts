import { permissionsFromStored } from '../permissions/permissions';
import { type SqlExecutor } from '../sql/sql-client';
import { type ApiTokenRecord } from './api-token';
import { type ApiTokenStore, type NewApiToken, type StoredApiToken } from './api-token-store';

interface ApiTokenRow {
  id: string;
  name: string;
  permissions: unknown;
  token_hash: Uint8Array;
  last_four: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date;
  created_by: string | null;
}

const COLUMNS =
  'id, name, permissions, last_four, created_at, last_used_at, expires_at, created_by';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toRecord(row: Omit<ApiTokenRow, 'token_hash'>): ApiTokenRecord {
  return {
    id: row.id,
    name: row.name,
    permissions: permissionsFromStored(row.permissions),
    lastFour: row.last_four,
    createdAt: new Date(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
    expiresAt: new Date(row.expires_at),
    createdBy: row.created_by,
  };
}

/** ApiTokenStore over the `api_tokens` table (migration 0001). */
export class SqlApiTokenStore implements ApiTokenStore {
  constructor(private readonly sql: SqlExecutor) {}

  async insert(token: NewApiToken): Promise<ApiTokenRecord> {
    const { rows } = await this.sql.query<ApiTokenRow>(
      `INSERT INTO api_tokens
         (name, permissions, token_hash, last_four, created_at, expires_at, created_by)
       VALUES ($1, $2::jsonb, $3, $4, $5, $6, $7)
       RETURNING ${COLUMNS}`,
      [
        token.name,
        JSON.stringify(token.permissions),
        token.tokenHash,
        token.lastFour,
        token.createdAt,
        token.expiresAt,
        token.createdBy,
      ],
    );
    return toRecord(rows[0]);
  }

  async listLive(): Promise<ApiTokenRecord[]> {
    const { rows } = await this.sql.query<ApiTokenRow>(
      `SELECT ${COLUMNS} FROM api_tokens WHERE deleted_at IS NULL ORDER BY created_at DESC, id`,
    );
    return rows.map(toRecord);
  }

  async findLiveByHash(tokenHash: Buffer): Promise<StoredApiToken | null> {
    return (await this.findLiveByHashes([tokenHash]))[0];
  }

  /**
   * One row per hash, in order, whether it is known or not: a decoy of the same shape when it
   * is not, read the same way, so how long a refusal takes does not tell whether a token exists.
   */
  async findLiveByHashes(tokenHashes: readonly Buffer[]): Promise<(StoredApiToken | null)[]> {
    if (tokenHashes.length === 0) return [];
    const { rows } = await this.sql.query<ApiTokenRow & { found: boolean }>(
      `SELECT t.id IS NOT NULL AS found,
              COALESCE(t.id, '00000000-0000-0000-0000-000000000000'::uuid) AS id,
              COALESCE(t.name, 'decoy') AS name,
              COALESCE(t.permissions, '{"detection":"read"}'::jsonb) AS permissions,
              COALESCE(t.last_four, '0000') AS last_four,
              COALESCE(t.created_at, now()) AS created_at,
              t.last_used_at,
              COALESCE(t.expires_at, now()) AS expires_at,
              t.created_by,
              COALESCE(t.token_hash, decode(p.hash, 'hex')) AS token_hash
       FROM unnest($1::text[]) WITH ORDINALITY AS p(hash, position)
       LEFT JOIN api_tokens t ON t.token_hash = decode(p.hash, 'hex') AND t.deleted_at IS NULL
       ORDER BY p.position`,
      [tokenHashes.map((hash) => hash.toString('hex'))],
      // Every API request runs it: planned once per connection, it costs the database a
      // fraction of the CPU and the request its share of the wait.
      { prepareAs: 'api_tokens_find_live_by_hashes' },
    );
    return rows.map((row) => {
      const stored = { ...toRecord(row), tokenHash: Buffer.from(row.token_hash) };
      return row.found ? stored : null;
    });
  }

  async markDeleted(id: string, at: Date): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const { rowCount } = await this.sql.query(
      'UPDATE api_tokens SET deleted_at = $2 WHERE id = $1 AND deleted_at IS NULL',
      [id, at],
    );
    return rowCount > 0;
  }

  async touchLastUsed(id: string, at: Date): Promise<boolean> {
    const { rowCount } = await this.sql.query(
      `UPDATE api_tokens SET last_used_at = $2
       WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`,
      [id, at],
    );
    return rowCount > 0;
  }
}
