import { type SqlExecutor } from '../sql/sql-client';
import { type DeliveryChannel, type DeliveryKind } from './delivery';

/** A dead delivery whose fallback is still to be created, with how it failed. */
export interface DeadDelivery {
  id: string;
  notificationId: string;
  kind: DeliveryKind;
  channel: DeliveryChannel;
  target: string;
  subjectId: string | null;
  /** The body as stored. */
  payload: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  diedAt: Date;
}

/**
 * The dead deliveries the fallback sweep has not handled yet (migration 0015's partial index).
 * `peek` reads them (outside a transaction: the sweep then reads their destinations, which the
 * embedded database cannot do inside one); `take` locks those still unhandled in the caller's
 * transaction, in which the fallback deliveries are created and `markHandled` is set, so each
 * dead delivery falls back once even with several notifiers.
 */
export class SqlFallbackQueue {
  constructor(private readonly sql: SqlExecutor) {}

  async peek(limit: number): Promise<DeadDelivery[]> {
    const { rows } = await this.sql.query<{
      id: string;
      notification_id: string;
      kind: DeliveryKind;
      channel: DeliveryChannel;
      target: string;
      subject_id: string | null;
      payload: string;
      attempt_count: number;
      last_error: string | null;
      updated_at: Date;
      status_code: number | null;
    }>(
      `WITH due AS (
         SELECT id FROM deliveries
         WHERE status = 'dead' AND fallback_sent_at IS NULL
         ORDER BY updated_at LIMIT $1)
       SELECT d.id, d.notification_id, d.kind, d.channel, d.target, d.subject_id,
              d.payload::text AS payload, d.attempt_count, d.last_error, d.updated_at,
              (SELECT a.status_code FROM delivery_attempts a WHERE a.delivery_id = d.id
               ORDER BY a.attempt DESC LIMIT 1) AS status_code
       FROM deliveries d JOIN due ON due.id = d.id
       ORDER BY d.updated_at`,
      [limit],
    );
    return rows.map((row) => ({
      id: row.id,
      notificationId: row.notification_id,
      kind: row.kind,
      channel: row.channel,
      target: row.target,
      subjectId: row.subject_id,
      payload: row.payload,
      attempts: row.attempt_count,
      lastStatusCode: row.status_code,
      lastError: row.last_error,
      diedAt: new Date(row.updated_at),
    }));
  }

  /** Locks those of `ids` still dead and unhandled; returns their ids (lower case). */
  async take(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await this.sql.query<{ id: string }>(
      `SELECT id FROM deliveries
       WHERE id = ANY($1::uuid[]) AND status = 'dead' AND fallback_sent_at IS NULL
       FOR UPDATE SKIP LOCKED`,
      [ids],
    );
    return new Set(rows.map((row) => row.id.toLowerCase()));
  }

  async markHandled(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.query(
      `UPDATE deliveries SET fallback_sent_at = now() WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  }
}
