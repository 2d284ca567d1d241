import { type SqlExecutor } from '../sql/sql-client';

/**
 * The deliveries a disabled provider holds: set aside when it is disabled, queued again by
 * "recover" when it is enabled. Both run in the caller's transaction, beside the provider's
 * change and its audit event.
 */

/**
 * Records a disabled provider's pending deliveries as skipped (cause `disabled`, the reason
 * where an error would be); returns how many. A delivery being sent right now finishes its
 * attempt.
 */
export async function skipPendingDeliveries(
  tx: SqlExecutor,
  providerId: string,
  reason: string,
): Promise<number> {
  const { rowCount } = await tx.query(
    `UPDATE deliveries
     SET status = 'skipped', skip_cause = 'disabled', last_error = $2, next_attempt_at = NULL,
         updated_at = now()
     WHERE target = $1 AND channel = 'webhook' AND status = 'pending'`,
    [providerId, reason],
  );
  return rowCount;
}

/**
 * Queues again every dead delivery to a provider and every one skipped while it was disabled,
 * created at or after `since`: same ids and bodies, a fresh retry schedule, due one after the
 * other in the order they were created (the claim takes due deliveries oldest first). Returns
 * how many.
 */
export async function recoverDeliveries(
  tx: SqlExecutor,
  providerId: string,
  since: Date,
): Promise<number> {
  const { rowCount } = await tx.query(
    `WITH locked AS (
       SELECT id, created_at FROM deliveries
       WHERE target = $1 AND channel = 'webhook' AND created_at >= $2
         AND (status = 'dead' OR (status = 'skipped' AND skip_cause = 'disabled'))
       FOR UPDATE),
     held AS (
       SELECT id, row_number() OVER (ORDER BY created_at, id) AS position FROM locked)
     UPDATE deliveries d
     SET status = 'pending', skip_cause = NULL, series_failures = 0,
         next_attempt_at = now() + held.position * interval '1 millisecond', updated_at = now()
     FROM held WHERE d.id = held.id`,
    [providerId, since],
  );
  return rowCount;
}
