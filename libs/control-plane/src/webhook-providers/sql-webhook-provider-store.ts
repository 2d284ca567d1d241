import { type SqlExecutor } from '../sql/sql-client';
import type { DestinationKind } from '@vigil/destinations';
import type {
  EndpointHealth,
  FilterSubjects,
  HealthChange,
  ProviderFilter,
} from '@vigil/notification-policy';
import {
  type PagerDutyDestinationView,
  type ProviderHealthCandidate,
  type WebhookProviderKind,
  type WebhookProviderView,
} from './webhook-provider';

interface ProviderRow {
  id: string;
  name: string;
  kind: WebhookProviderKind;
  url: string;
  destination_kind: DestinationKind;
  destination_options: Record<string, unknown>;
  destination_credential?: string | null;
  filter_subjects: FilterSubjects;
  filter_min_risk_score: number | null;
  filter_sources: string[];
  failing_since: Date | null;
  dead_in_a_row: number;
  disabled_at: Date | null;
  disabled_reason: string | null;
  secret?: string;
  previous_secret?: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  rotated_at: Date | null;
  deleted_at?: Date | null;
}

/** A provider row with its secrets as stored (sealed, or a plaintext from before sealing). */
export interface StoredProviderSecrets {
  id: string;
  name: string;
  url: string;
  destinationKind: DestinationKind;
  /** What the kind needs besides its credential (PagerDuty: severityMapping, source, region). */
  destinationOptions: Record<string, unknown>;
  /** The Slack or Teams URL or the PagerDuty routing key, as stored; null for webhooks. */
  destinationCredential: string | null;
  filter: ProviderFilter;
  disabled: boolean;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  deleted: boolean;
}

const FILTER_COLUMNS = 'filter_subjects, filter_min_risk_score, filter_sources';
const HEALTH_COLUMNS = 'failing_since, dead_in_a_row, disabled_at, disabled_reason';
const VIEW_COLUMNS =
  'id, name, kind, url, destination_kind, destination_options, created_at, rotated_at, ' +
  `previous_secret_expires_at, ${FILTER_COLUMNS}, ${HEALTH_COLUMNS}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

function filterOf(row: ProviderRow): ProviderFilter {
  return {
    subjects: row.filter_subjects,
    // double precision comes back as a number from pg and PGlite alike.
    minRiskScore: row.filter_min_risk_score === null ? null : Number(row.filter_min_risk_score),
    sources: row.filter_sources,
  };
}

function healthOf(row: ProviderRow): EndpointHealth {
  return {
    failingSince: row.failing_since === null ? null : new Date(row.failing_since),
    deadInARow: row.dead_in_a_row,
  };
}

/** The view at `now`: the previous secret's end shows only while it still signs. */
function toView(row: ProviderRow, now: Date): WebhookProviderView {
  const previousUntil =
    row.previous_secret_expires_at === null ? null : new Date(row.previous_secret_expires_at);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    destination: row.destination_kind,
    url: row.url,
    ...(row.destination_kind === 'pagerduty'
      ? { pagerDuty: row.destination_options as unknown as PagerDutyDestinationView }
      : {}),
    filter: filterOf(row),
    health: healthOf(row),
    ...(row.disabled_at === null
      ? {}
      : { disabled: { at: new Date(row.disabled_at), reason: row.disabled_reason ?? '' } }),
    createdAt: new Date(row.created_at),
    rotatedAt: row.rotated_at === null ? null : new Date(row.rotated_at),
    ...(previousUntil !== null && previousUntil > now
      ? { previousSecretValidUntil: previousUntil }
      : {}),
  };
}

/**
 * The `webhook_providers` table (migrations 0003, 0007). Secrets go in and come out as stored:
 * sealing and opening them is the service's. Only `secretsOf` reads them.
 */
export class SqlWebhookProviderStore {
  constructor(private readonly sql: SqlExecutor) {}

  async insert(provider: {
    id: string;
    name: string;
    kind: WebhookProviderKind;
    url: string;
    destinationKind: DestinationKind;
    destinationOptions: Record<string, unknown>;
    /** Sealed by the caller; null for webhooks. */
    destinationCredential: string | null;
    filter: ProviderFilter;
    secret: string;
    createdAt: Date;
  }): Promise<WebhookProviderView> {
    const { rows } = await this.sql.query<ProviderRow>(
      `INSERT INTO webhook_providers
         (id, name, kind, url, destination_kind, destination_options, destination_credential,
          secret, created_at, filter_subjects, filter_min_risk_score, filter_sources)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12::text[])
       RETURNING ${VIEW_COLUMNS}`,
      [
        provider.id,
        provider.name,
        provider.kind,
        provider.url,
        provider.destinationKind,
        JSON.stringify(provider.destinationOptions),
        provider.destinationCredential,
        provider.secret,
        provider.createdAt,
        provider.filter.subjects,
        provider.filter.minRiskScore,
        provider.filter.sources,
      ],
    );
    return toView(rows[0], provider.createdAt);
  }

  /** Replaces a live provider's filter; null when there is no such provider. */
  async setFilter(
    id: string,
    filter: ProviderFilter,
    at: Date,
  ): Promise<WebhookProviderView | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.sql.query<ProviderRow>(
      `UPDATE webhook_providers
       SET filter_subjects = $2, filter_min_risk_score = $3, filter_sources = $4::text[]
       WHERE id = $1 AND deleted_at IS NULL RETURNING ${VIEW_COLUMNS}`,
      [id, filter.subjects, filter.minRiskScore, filter.sources],
    );
    return rows.length === 0 ? null : toView(rows[0], at);
  }

  /** A live provider as listed; null when there is none with this id. */
  async findLive(id: string, now: Date): Promise<WebhookProviderView | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.sql.query<ProviderRow>(
      `SELECT ${VIEW_COLUMNS} FROM webhook_providers WHERE id = $1 AND deleted_at IS NULL`,
      [id],
    );
    return rows.length === 0 ? null : toView(rows[0], now);
  }

  async listLive(now: Date): Promise<WebhookProviderView[]> {
    const { rows } = await this.sql.query<ProviderRow>(
      `SELECT ${VIEW_COLUMNS} FROM webhook_providers WHERE deleted_at IS NULL
       ORDER BY created_at DESC, id`,
    );
    return rows.map((row) => toView(row, now));
  }

  /**
   * Puts `secret` in place; the replaced one becomes the previous secret until
   * `previousExpiresAt`, or is dropped at once when that is null.
   */
  async rotateSecret(
    id: string,
    secret: string,
    at: Date,
    previousExpiresAt: Date | null,
  ): Promise<WebhookProviderView | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.sql.query<ProviderRow>(
      `UPDATE webhook_providers
       SET previous_secret = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE secret END,
           previous_secret_expires_at = $4::timestamptz,
           secret = $2, rotated_at = $3
       WHERE id = $1 AND deleted_at IS NULL RETURNING ${VIEW_COLUMNS}`,
      [id, secret, at, previousExpiresAt],
    );
    return rows.length === 0 ? null : toView(rows[0], at);
  }

  async markDeleted(id: string, at: Date): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { rowCount } = await this.sql.query(
      `UPDATE webhook_providers
       SET deleted_at = $2, previous_secret = NULL, previous_secret_expires_at = NULL
       WHERE id = $1 AND deleted_at IS NULL`,
      [id, at],
    );
    return rowCount > 0;
  }

  /** Providers by id with their stored secrets, deleted ones included (flagged). */
  async secretsOf(ids: readonly string[]): Promise<StoredProviderSecrets[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const { rows } = await this.sql.query<ProviderRow>(
      `SELECT id, name, kind, url, destination_kind, destination_options, destination_credential,
              secret, previous_secret, previous_secret_expires_at, created_at, rotated_at,
              deleted_at, ${FILTER_COLUMNS}, ${HEALTH_COLUMNS}
       FROM webhook_providers WHERE id = ANY($1::uuid[])`,
      [valid],
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      url: row.url,
      destinationKind: row.destination_kind,
      destinationOptions: row.destination_options,
      destinationCredential: row.destination_credential ?? null,
      filter: filterOf(row),
      disabled: row.disabled_at !== null,
      secret: row.secret ?? '',
      previousSecret: row.previous_secret ?? null,
      previousSecretExpiresAt:
        row.previous_secret_expires_at === null ? null : new Date(row.previous_secret_expires_at),
      deleted: row.deleted_at !== null && row.deleted_at !== undefined,
    }));
  }

  /**
   * Disables a live, enabled provider; null when there is none (unknown, deleted, or already
   * disabled: the first reason stays).
   */
  async disable(id: string, at: Date, reason: string): Promise<WebhookProviderView | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.sql.query<ProviderRow>(
      `UPDATE webhook_providers SET disabled_at = $2, disabled_reason = $3
       WHERE id = $1 AND deleted_at IS NULL AND disabled_at IS NULL RETURNING ${VIEW_COLUMNS}`,
      [id, at, reason],
    );
    return rows.length === 0 ? null : toView(rows[0], at);
  }

  /**
   * Enables a live provider and starts its health counters afresh; an enabled one only gets its
   * view back. Null when there is no such provider.
   */
  async enable(
    id: string,
    at: Date,
  ): Promise<{ provider: WebhookProviderView; wasDisabled: boolean } | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.sql.query<ProviderRow & { was_disabled: boolean }>(
      `WITH before AS (
         SELECT id, disabled_at IS NOT NULL AS was_disabled FROM webhook_providers
         WHERE id = $1 AND deleted_at IS NULL FOR UPDATE)
       UPDATE webhook_providers p
       SET disabled_at = NULL, disabled_reason = NULL,
           health_since = CASE WHEN b.was_disabled THEN $2 ELSE p.health_since END,
           failing_since = CASE WHEN b.was_disabled THEN NULL ELSE p.failing_since END,
           dead_in_a_row = CASE WHEN b.was_disabled THEN 0 ELSE p.dead_in_a_row END
       FROM before b WHERE p.id = b.id
       RETURNING ${VIEW_COLUMNS.split(', ')
         .map((column) => `p.${column}`)
         .join(', ')}, b.was_disabled`,
      [id, at],
    );
    if (rows.length === 0) return null;
    return { provider: toView(rows[0], at), wasDisabled: rows[0].was_disabled };
  }

  /** Live, enabled providers whose counters say they have been failing. */
  async healthCandidates(): Promise<ProviderHealthCandidate[]> {
    const { rows } = await this.sql.query<ProviderRow>(
      `SELECT id, name, ${HEALTH_COLUMNS} FROM webhook_providers
       WHERE deleted_at IS NULL AND disabled_at IS NULL
         AND (failing_since IS NOT NULL OR dead_in_a_row > 0)`,
    );
    return rows.map((row) => ({ id: row.id, name: row.name, health: healthOf(row) }));
  }

  /** Live providers that are disabled, oldest first: what the web application's banner lists. */
  async listDisabled(now: Date): Promise<WebhookProviderView[]> {
    const { rows } = await this.sql.query<ProviderRow>(
      `SELECT ${VIEW_COLUMNS} FROM webhook_providers
       WHERE deleted_at IS NULL AND disabled_at IS NOT NULL ORDER BY disabled_at, id`,
    );
    return rows.map((row) => toView(row, now));
  }

  /**
   * Applies what recorded attempts change in each provider's counters (applyHealthChange states
   * the same rule): a success restarts them, failures add to them. Relative to the stored
   * values, so instances recording at once do not overwrite each other's counts. A provider whose
   * counters would not change is not written: a healthy receiver's batches (nearly all of them)
   * then cost a read instead of a row version, a lock on a row every batch wants and a commit.
   */
  async applyHealthChanges(changes: ReadonlyMap<string, HealthChange>): Promise<void> {
    const entries = [...changes].filter(([id]) => isUuid(id));
    if (entries.length === 0) return;
    await this.sql.query(
      `UPDATE webhook_providers p SET
         failing_since = CASE WHEN c.reset THEN c.failing_since
                              ELSE COALESCE(p.failing_since, c.failing_since) END,
         dead_in_a_row = CASE WHEN c.reset THEN c.dead ELSE p.dead_in_a_row + c.dead END
       FROM unnest($1::uuid[], $2::boolean[], $3::timestamptz[], $4::int[])
         AS c(id, reset, failing_since, dead)
       WHERE p.id = c.id AND p.deleted_at IS NULL AND p.disabled_at IS NULL
         AND CASE WHEN c.reset
                  THEN p.failing_since IS DISTINCT FROM c.failing_since OR p.dead_in_a_row <> c.dead
                  ELSE (p.failing_since IS NULL AND c.failing_since IS NOT NULL) OR c.dead <> 0 END`,
      [
        entries.map(([id]) => id),
        entries.map(([, change]) => change.reset),
        entries.map(([, change]) => change.failingSince),
        entries.map(([, change]) => change.dead),
      ],
    );
  }
}
