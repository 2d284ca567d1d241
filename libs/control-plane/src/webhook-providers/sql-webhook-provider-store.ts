import { type SqlExecutor } from '../sql/sql-client';
import {
  type WebhookProviderKind,
  type WebhookProviderTarget,
  type WebhookProviderView,
} from './webhook-provider';

interface ProviderRow {
  id: string;
  name: string;
  kind: WebhookProviderKind;
  url: string;
  secret?: string;
  created_at: Date;
  rotated_at: Date | null;
  deleted_at?: Date | null;
}

const VIEW_COLUMNS = 'id, name, kind, url, created_at, rotated_at';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

function toView(row: ProviderRow): WebhookProviderView {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    url: row.url,
    createdAt: new Date(row.created_at),
    rotatedAt: row.rotated_at === null ? null : new Date(row.rotated_at),
  };
}

/** The `webhook_providers` table (migration 0003). Only `targets` ever reads the secret. */
export class SqlWebhookProviderStore {
  constructor(private readonly sql: SqlExecutor) {}

  async insert(provider: {
    name: string;
    kind: WebhookProviderKind;
    url: string;
    secret: string;
    createdAt: Date;
  }): Promise<WebhookProviderView> {
    const { rows } = await this.sql.query<ProviderRow>(
      `INSERT INTO webhook_providers (name, kind, url, secret, created_at)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${VIEW_COLUMNS}`,
      [provider.name, provider.kind, provider.url, provider.secret, provider.createdAt],
    );
    return toView(rows[0]);
  }

  async listLive(): Promise<WebhookProviderView[]> {
    const { rows } = await this.sql.query<ProviderRow>(
      `SELECT ${VIEW_COLUMNS} FROM webhook_providers WHERE deleted_at IS NULL
       ORDER BY created_at DESC, id`,
    );
    return rows.map(toView);
  }

  async replaceSecret(id: string, secret: string, at: Date): Promise<WebhookProviderView | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.sql.query<ProviderRow>(
      `UPDATE webhook_providers SET secret = $2, rotated_at = $3
       WHERE id = $1 AND deleted_at IS NULL RETURNING ${VIEW_COLUMNS}`,
      [id, secret, at],
    );
    return rows.length === 0 ? null : toView(rows[0]);
  }

  async markDeleted(id: string, at: Date): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { rowCount } = await this.sql.query(
      'UPDATE webhook_providers SET deleted_at = $2 WHERE id = $1 AND deleted_at IS NULL',
      [id, at],
    );
    return rowCount > 0;
  }

  /** Providers by id, deleted ones included (flagged) so callers can tell them from unknown ids. */
  async targets(ids: readonly string[]): Promise<WebhookProviderTarget[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const { rows } = await this.sql.query<ProviderRow>(
      `SELECT id, name, kind, url, secret, created_at, rotated_at, deleted_at
       FROM webhook_providers WHERE id = ANY($1::uuid[])`,
      [valid],
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      url: row.url,
      secret: row.secret ?? '',
      deleted: row.deleted_at !== null && row.deleted_at !== undefined,
    }));
  }
}
