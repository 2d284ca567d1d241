import { type SqlExecutor } from '../sql/sql-client';
import { type NewDelivery } from './delivery';
import { ROWS_PER_STATEMENT } from './values-list';

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
    // One array per column: the statement's text and plan are the same for every batch size,
    // where a VALUES list of nine parameters a row is parsed and planned anew each time.
    // A skipped delivery is never due: no next attempt, its reason where an error would be.
    const { rows } = await tx.query<{ skipped: boolean }>(
      `INSERT INTO deliveries
         (id, notification_id, kind, channel, target, subject_id, payload, status, last_error,
          next_attempt_at, skip_cause)
       SELECT id, notification_id, kind, channel, target, subject_id, payload::json,
              CASE WHEN reason IS NULL THEN 'pending' ELSE 'skipped' END, reason,
              CASE WHEN reason IS NULL THEN now() END, skip_cause
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                   $7::text[], $8::text[], $9::text[])
         AS v (id, notification_id, kind, channel, target, subject_id, payload, reason, skip_cause)
       ON CONFLICT (notification_id, channel, target) DO NOTHING
       RETURNING status = 'skipped' AS skipped`,
      [
        chunk.map((d) => d.id),
        chunk.map((d) => d.notificationId),
        chunk.map((d) => d.kind),
        chunk.map((d) => d.channel),
        chunk.map((d) => d.target),
        chunk.map((d) => d.subjectId),
        chunk.map((d) => d.payloadJson ?? JSON.stringify(d.payload)),
        chunk.map((d) => d.skippedBecause ?? null),
        chunk.map((d) => (d.skippedBecause === undefined ? null : (d.skipCause ?? 'filter'))),
      ],
    );
    result.created += rows.length;
    result.skipped += rows.filter((row) => row.skipped).length;
  }
  return result;
}
