import { type SqlExecutor } from '../sql/sql-client';
import { type ClaimedDelivery, type NewDelivery } from './delivery';
import { ROWS_PER_STATEMENT } from './values-list';

/**
 * How many deliveries an insert created, how many of those were skipped by a filter, and those
 * created leased (`leaseMs`), ready to send.
 */
export interface InsertedDeliveries {
  created: number;
  skipped: number;
  leased: ClaimedDelivery[];
}

/**
 * Creates deliveries in the caller's transaction; one that exists for the same notification and
 * target is left alone (a replay creates, skips and leases nothing). A delivery with `leaseMs`
 * goes in leased (`delivering`), as a claim would leave it: its creator sends it without a claim.
 */
export async function insertDeliveries(
  tx: SqlExecutor,
  deliveries: readonly NewDelivery[],
): Promise<InsertedDeliveries> {
  const result: InsertedDeliveries = { created: 0, skipped: 0, leased: [] };
  for (let i = 0; i < deliveries.length; i += ROWS_PER_STATEMENT) {
    const chunk = deliveries.slice(i, i + ROWS_PER_STATEMENT);
    const payloads = chunk.map((d) => d.payloadJson ?? JSON.stringify(d.payload));
    // One array per column: the statement's text and plan are the same for every batch size,
    // where a VALUES list of nine parameters a row is parsed and planned anew each time.
    // A skipped delivery is never due: no next attempt, its reason where an error would be.
    const { rows } = await tx.query<{ id: string; status: string }>(
      `INSERT INTO deliveries
         (id, notification_id, kind, channel, target, subject_id, payload, status, last_error,
          next_attempt_at, skip_cause, lease_until)
       SELECT id, notification_id, kind, channel, target, subject_id, payload::json,
              CASE WHEN reason IS NOT NULL THEN 'skipped'
                   WHEN lease_ms IS NOT NULL THEN 'delivering'
                   ELSE 'pending' END,
              reason, CASE WHEN reason IS NULL THEN now() END, skip_cause,
              CASE WHEN reason IS NULL AND lease_ms IS NOT NULL
                   THEN now() + lease_ms * interval '1 millisecond' END
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                   $7::text[], $8::text[], $9::text[], $10::bigint[])
         AS v (id, notification_id, kind, channel, target, subject_id, payload, reason, skip_cause,
               lease_ms)
       ON CONFLICT (notification_id, channel, target) DO NOTHING
       RETURNING id, status`,
      [
        chunk.map((d) => d.id),
        chunk.map((d) => d.notificationId),
        chunk.map((d) => d.kind),
        chunk.map((d) => d.channel),
        chunk.map((d) => d.target),
        chunk.map((d) => d.subjectId),
        payloads,
        chunk.map((d) => d.skippedBecause ?? null),
        chunk.map((d) => (d.skippedBecause === undefined ? null : (d.skipCause ?? 'filter'))),
        chunk.map((d) => d.leaseMs ?? null),
      ],
    );
    result.created += rows.length;
    const leasedIds = new Set<string>();
    for (const row of rows) {
      if (row.status === 'skipped') result.skipped += 1;
      else if (row.status === 'delivering') leasedIds.add(row.id.toLowerCase());
    }
    if (leasedIds.size === 0) continue;
    chunk.forEach((d, index) => {
      if (!leasedIds.has(d.id.toLowerCase())) return;
      // The payload as stored: a json column keeps its text as written.
      result.leased.push({
        id: d.id,
        notificationId: d.notificationId,
        kind: d.kind,
        channel: d.channel,
        target: d.target,
        payload: payloads[index],
        attemptCount: 0,
        seriesFailures: 0,
      });
    });
  }
  return result;
}
