import { type SqlExecutor } from '../sql/sql-client';
import { type NewDelivery } from './delivery';
import { ROWS_PER_STATEMENT, valuesList } from './values-list';

/** How many deliveries an insert created, and how many of those were skipped by a filter. */
export interface InsertedDeliveries {
  created: number;
  skipped: number;
}

/**
 * Creates deliveries in the caller's transaction; one that exists for the same notification and
 * target is left alone (a replay creates and skips nothing).
 */
export async function insertDeliveries(
  tx: SqlExecutor,
  deliveries: readonly NewDelivery[],
): Promise<InsertedDeliveries> {
  const result = { created: 0, skipped: 0 };
  for (let i = 0; i < deliveries.length; i += ROWS_PER_STATEMENT) {
    const chunk = deliveries.slice(i, i + ROWS_PER_STATEMENT);
    const params = chunk.flatMap((d) => [
      d.id,
      d.notificationId,
      d.kind,
      d.channel,
      d.target,
      d.subjectId,
      d.payloadJson ?? JSON.stringify(d.payload),
      d.skippedBecause ?? null,
      d.skippedBecause === undefined ? null : (d.skipCause ?? 'filter'),
    ]);
    // A skipped delivery is never due: no next attempt, its reason where an error would be.
    const { rows } = await tx.query<{ skipped: boolean }>(
      `INSERT INTO deliveries
         (id, notification_id, kind, channel, target, subject_id, payload, status, last_error,
          next_attempt_at, skip_cause)
       SELECT id, notification_id, kind, channel, target, subject_id, payload,
              CASE WHEN reason IS NULL THEN 'pending' ELSE 'skipped' END, reason,
              CASE WHEN reason IS NULL THEN now() END, skip_cause
       FROM (VALUES ${valuesList(chunk.length, 9, ['::uuid', '', '', '', '', '', '::json', '::text', '::text'])})
         AS v (id, notification_id, kind, channel, target, subject_id, payload, reason, skip_cause)
       ON CONFLICT (notification_id, channel, target) DO NOTHING
       RETURNING status = 'skipped' AS skipped`,
      params,
    );
    result.created += rows.length;
    result.skipped += rows.filter((row) => row.skipped).length;
  }
  return result;
}
