import { type SqlExecutor } from '../sql/sql-client';
import { type FallbackDestination, type FallbackDestinationView } from './fallback-destination';

interface FallbackRow {
  scope: string;
  provider_id: string | null;
  provider_name: string | null;
  recipients: string[];
  updated_at: Date;
}

function toView(row: FallbackRow): FallbackDestinationView {
  return {
    scope: row.scope,
    providerId: row.provider_id,
    providerName: row.provider_name,
    recipients: row.recipients,
    updatedAt: new Date(row.updated_at),
  };
}

/** The `fallback_destinations` table (migration 0015): one row per scope that has one. */
export class SqlFallbackStore {
  constructor(private readonly sql: SqlExecutor) {}

  /**
   * The destinations of these scopes that exist. A deleted provider is left out of its
   * destination (its recipients still apply); one left with nothing is left out altogether, so
   * a detection whose own provider was deleted falls back to the global destination.
   */
  async findAll(scopes: readonly string[]): Promise<Map<string, FallbackDestinationView>> {
    if (scopes.length === 0) return new Map();
    const { rows } = await this.sql.query<FallbackRow>(
      `SELECT f.scope, p.id AS provider_id, p.name AS provider_name, f.recipients, f.updated_at
       FROM fallback_destinations f
       LEFT JOIN webhook_providers p ON p.id = f.provider_id AND p.deleted_at IS NULL
       WHERE f.scope = ANY($1::text[]) AND (p.id IS NOT NULL OR cardinality(f.recipients) > 0)`,
      [scopes],
    );
    return new Map(rows.map((row) => [row.scope, toView(row)]));
  }

  async set(scope: string, destination: FallbackDestination): Promise<void> {
    await this.sql.query(
      `INSERT INTO fallback_destinations (scope, provider_id, recipients, updated_at)
       VALUES ($1, $2, $3::text[], now())
       ON CONFLICT (scope) DO UPDATE
       SET provider_id = excluded.provider_id, recipients = excluded.recipients,
           updated_at = excluded.updated_at`,
      [scope, destination.providerId, destination.recipients],
    );
  }

  async clear(scope: string): Promise<void> {
    await this.sql.query(`DELETE FROM fallback_destinations WHERE scope = $1`, [scope]);
  }
}
