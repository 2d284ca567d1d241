import { type SqlExecutor } from '../sql/sql-client';
import {
  type DeliveryAttempt,
  type DeliveryChannel,
  type DeliveryFilter,
  type DeliveryKind,
  type DeliveryStatus,
  type DeliveryView,
  type DeliveryWithAttempts,
  type DeliveryWithLastAttempt,
  type SkipCause,
} from './delivery';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface DeliveryRow {
  id: string;
  notification_id: string;
  kind: DeliveryKind;
  channel: DeliveryChannel;
  target: string;
  subject_id: string | null;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: Date | null;
  last_error: string | null;
  skip_cause: SkipCause | null;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
}

interface AttemptRow {
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

/** A delivery row with its newest attempt's columns (null when it has none), prefixed `a_`. */
interface DeliveryWithLastAttemptRow extends DeliveryRow {
  a_attempt: number | null;
  a_attempted_at: Date | null;
  a_status_code: number | null;
  a_latency_ms: number | null;
  a_error: string | null;
}

const DELIVERY_COLUMNS = `d.id, d.notification_id, d.kind, d.channel, d.target, d.subject_id, d.status,
  d.attempt_count, d.next_attempt_at, d.last_error, d.skip_cause, d.created_at, d.updated_at, d.delivered_at`;

/** The filter of `list`, as parameters $1..$6 of a query over `deliveries d`. */
const FILTERED = `WHERE ($1::text IS NULL OR d.status = $1) AND ($2::text IS NULL OR d.notification_id = $2)
    AND ($3::text IS NULL OR d.subject_id = $3) AND ($4::text IS NULL OR d.channel = $4)
    AND ($5::text IS NULL OR d.target = $5)
  ORDER BY d.created_at DESC, d.id
  LIMIT $6`;

function filterParams(filter: DeliveryFilter): unknown[] {
  return [
    filter.status ?? null,
    filter.notificationId ?? null,
    filter.subjectId ?? null,
    filter.channel ?? null,
    filter.target ?? null,
    filter.limit ?? 100,
  ];
}

const date = (value: Date | null) => (value === null ? null : new Date(value));

function toView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    notificationId: row.notification_id,
    kind: row.kind,
    channel: row.channel,
    target: row.target,
    subjectId: row.subject_id,
    status: row.status,
    attemptCount: row.attempt_count,
    nextAttemptAt: date(row.next_attempt_at),
    lastError: row.last_error,
    ...(row.skip_cause === null ? {} : { skipCause: row.skip_cause }),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    deliveredAt: date(row.delivered_at),
  };
}

function toAttempt(row: AttemptRow): DeliveryAttempt {
  return {
    attempt: row.attempt,
    attemptedAt: new Date(row.attempted_at),
    statusCode: row.status_code,
    latencyMs: row.latency_ms,
    error: row.error,
  };
}

function lastAttemptOf(row: DeliveryWithLastAttemptRow): DeliveryAttempt | null {
  if (row.a_attempt === null) return null;
  return toAttempt({
    attempt: row.a_attempt,
    attempted_at: row.a_attempted_at!,
    status_code: row.a_status_code,
    latency_ms: row.a_latency_ms!,
    error: row.a_error,
  });
}

/**
 * The delivery log as people read it (migration 0003, indexes of 0005): deliveries newest
 * first with their attempts, and the one change a person makes, sending a dead one again.
 */
export class SqlDeliveryLog {
  constructor(private readonly sql: SqlExecutor) {}

  async find(id: string): Promise<DeliveryView | null> {
    if (!UUID.test(id)) return null;
    const { rows } = await this.sql.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM deliveries d WHERE d.id = $1`,
      [id],
    );
    return rows.length === 0 ? null : toView(rows[0]);
  }

  /**
   * Newest first, optionally narrowed to one status, notification, subject (the detection or
   * investigation), channel or target (provider id or recipient). The subject and target
   * filters have their own indexes (migration 0005), so a page reads only its rows.
   */
  async list(filter: DeliveryFilter = {}): Promise<DeliveryView[]> {
    const { rows } = await this.sql.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM deliveries d ${FILTERED}`,
      filterParams(filter),
    );
    return rows.map(toView);
  }

  /** As `list`, each delivery with its newest attempt, in one query. */
  async listWithLastAttempt(filter: DeliveryFilter = {}): Promise<DeliveryWithLastAttempt[]> {
    const { rows } = await this.sql.query<DeliveryWithLastAttemptRow>(
      `SELECT ${DELIVERY_COLUMNS}, a.attempt AS a_attempt, a.attempted_at AS a_attempted_at,
              a.status_code AS a_status_code, a.latency_ms AS a_latency_ms, a.error AS a_error
       FROM deliveries d
       LEFT JOIN LATERAL (
         SELECT attempt, attempted_at, status_code, latency_ms, error FROM delivery_attempts
         WHERE delivery_id = d.id ORDER BY attempt DESC LIMIT 1) a ON true
       ${FILTERED}`,
      filterParams(filter),
    );
    return rows.map((row) => ({ delivery: toView(row), lastAttempt: lastAttemptOf(row) }));
  }

  /** As `list`, each delivery with every attempt in order: two queries, whatever the count. */
  async listWithAttempts(filter: DeliveryFilter = {}): Promise<DeliveryWithAttempts[]> {
    const deliveries = await this.list(filter);
    if (deliveries.length === 0) return [];
    const { rows } = await this.sql.query<AttemptRow & { delivery_id: string }>(
      `SELECT delivery_id, attempt, attempted_at, status_code, latency_ms, error
       FROM delivery_attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY delivery_id, attempt`,
      [deliveries.map((d) => d.id)],
    );
    const attempts = new Map<string, DeliveryAttempt[]>();
    for (const row of rows) {
      const id = row.delivery_id.toLowerCase();
      attempts.set(id, [...(attempts.get(id) ?? []), toAttempt(row)]);
    }
    return deliveries.map((delivery) => ({
      delivery,
      attempts: attempts.get(delivery.id.toLowerCase()) ?? [],
    }));
  }

  /** The newest delivery on `channel` to each of `targets` that has one, read by target index. */
  async latestByTarget(
    channel: DeliveryChannel,
    targets: readonly string[],
  ): Promise<Map<string, DeliveryView>> {
    if (targets.length === 0) return new Map();
    const { rows } = await this.sql.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS}
       FROM unnest($2::text[]) AS t(target)
       CROSS JOIN LATERAL (
         SELECT * FROM deliveries
         WHERE target = t.target AND channel = $1
         ORDER BY created_at DESC, id LIMIT 1) d`,
      [channel, [...new Set(targets)]],
    );
    return new Map(rows.map((row) => [row.target, toView(row)]));
  }

  async attempts(id: string): Promise<DeliveryAttempt[]> {
    if (!UUID.test(id)) return [];
    const { rows } = await this.sql.query<AttemptRow>(
      `SELECT attempt, attempted_at, status_code, latency_ms, error FROM delivery_attempts
       WHERE delivery_id = $1 ORDER BY attempt`,
      [id],
    );
    return rows.map(toAttempt);
  }

  /** Dead → pending, due now, with a fresh retry schedule. */
  async resend(id: string): Promise<'resent' | 'not_found' | 'not_dead'> {
    if (!UUID.test(id)) return 'not_found';
    const { rowCount } = await this.sql.query(
      `UPDATE deliveries SET status = 'pending', series_failures = 0, next_attempt_at = now(),
              updated_at = now()
       WHERE id = $1 AND status = 'dead'`,
      [id],
    );
    if (rowCount > 0) return 'resent';
    const found = await this.find(id);
    return found ? 'not_dead' : 'not_found';
  }
}
