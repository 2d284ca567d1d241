import { type SqlClient, type SqlExecutor } from '../sql/sql-client';
import { type DigestEntry, type DigestGroup, type NewDelivery } from './delivery';
import { insertDeliveries } from './insert-deliveries';
import { ROWS_PER_STATEMENT, valuesList } from './values-list';

/** Serializes digest closers of every notifier instance (one closes, the others skip a turn). */
const DIGEST_CLOSER_LOCK_KEY = '7236485513041850378';

interface DigestEntryRow {
  entry_key: string;
  recipient: string;
  window_start: string;
  window_end: string;
  detection_id: string;
  detection_name: string;
  new_count: number;
  current_count: number;
  user_count: number;
  affected_users: string[];
}

function toEntry(row: DigestEntryRow): DigestEntry {
  return {
    entryKey: row.entry_key,
    recipient: row.recipient,
    windowStart: Number(row.window_start),
    windowEnd: Number(row.window_end),
    detectionId: row.detection_id,
    detectionName: row.detection_name,
    newCount: row.new_count,
    currentCount: row.current_count,
    userCount: row.user_count,
    affectedUsers: row.affected_users,
  };
}

/**
 * The Batch digests of DESIGN §4 (migration 0003): lines stored until their window closes,
 * then turned into one digest delivery per recipient and window.
 */
export class SqlDigestStore {
  constructor(private readonly sql: SqlClient) {}

  /**
   * Stores digest lines. Of two entries for the same detection, window and recipient the one
   * with the higher current count wins (a replay may bring an older one late); an update to a
   * line already sent reopens it for a follow-up digest.
   */
  async upsertDigestEntries(tx: SqlExecutor, entries: readonly DigestEntry[]): Promise<void> {
    const latest = new Map<string, DigestEntry>();
    for (const entry of entries) {
      const key = `${entry.entryKey}\u0000${entry.recipient}`;
      const kept = latest.get(key);
      if (!kept || kept.currentCount < entry.currentCount) latest.set(key, entry);
    }
    const all = [...latest.values()];
    for (let i = 0; i < all.length; i += ROWS_PER_STATEMENT) {
      await this.upsertEntryRows(tx, all.slice(i, i + ROWS_PER_STATEMENT));
    }
  }

  private async upsertEntryRows(tx: SqlExecutor, rows: DigestEntry[]): Promise<void> {
    const params = rows.flatMap((e) => [
      e.entryKey,
      e.recipient,
      e.windowStart,
      e.windowEnd,
      e.detectionId,
      e.detectionName,
      e.newCount,
      e.currentCount,
      e.userCount,
      JSON.stringify(e.affectedUsers),
    ]);
    await tx.query(
      `INSERT INTO digest_entries
         (entry_key, recipient, window_start, window_end, detection_id, detection_name,
          new_count, current_count, user_count, affected_users)
       VALUES ${valuesList(rows.length, 10, ['', '', '::bigint', '::bigint', '', '', '::int', '::int', '::int', '::jsonb'])}
       ON CONFLICT (entry_key, recipient) DO UPDATE SET
         detection_name = EXCLUDED.detection_name,
         new_count = EXCLUDED.new_count,
         current_count = EXCLUDED.current_count,
         user_count = EXCLUDED.user_count,
         affected_users = EXCLUDED.affected_users,
         digest_sequence = NULL,
         updated_at = now()
       WHERE digest_entries.current_count < EXCLUDED.current_count`,
      params,
    );
  }

  /**
   * Turns the open entries of windows that ended at or before `cutoff` (epoch ms) into digest
   * deliveries, one per recipient and window, rendered by `render`. Runs in one transaction
   * under an advisory lock; returns how many digests were created (0 when another instance
   * holds the lock). Whole windows are closed, at most `maxWindows` a turn, and every
   * recipient's digest of a window is taken in one statement, from one snapshot: an entry
   * arriving meanwhile goes to every recipient's follow-up, never to some recipients' first
   * digest and others' second.
   */
  async closeDigests(
    cutoff: number,
    maxWindows: number,
    render: (group: DigestGroup) => NewDelivery,
  ): Promise<number> {
    return this.sql.transaction(async (tx) => {
      const { rows: lock } = await tx.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_xact_lock($1::bigint) AS locked',
        [DIGEST_CLOSER_LOCK_KEY],
      );
      if (!lock[0].locked) return 0;
      const { rows } = await tx.query<DigestEntryRow & { group_sequence: number }>(
        `WITH windows AS (
           SELECT DISTINCT window_start, window_end FROM digest_entries
           WHERE digest_sequence IS NULL AND window_end <= $1
           ORDER BY window_end, window_start
           LIMIT $2
         ), groups AS (
           SELECT e.recipient, e.window_start, e.window_end,
                  COALESCE((SELECT max(d.sequence) + 1 FROM digests d
                            WHERE d.recipient = e.recipient AND d.window_start = e.window_start
                              AND d.window_end = e.window_end), 0) AS sequence
           FROM digest_entries e JOIN windows w USING (window_start, window_end)
           WHERE e.digest_sequence IS NULL
           GROUP BY e.recipient, e.window_start, e.window_end
         )
         UPDATE digest_entries e SET digest_sequence = g.sequence
         FROM groups g
         WHERE e.recipient = g.recipient AND e.window_start = g.window_start
           AND e.window_end = g.window_end AND e.digest_sequence IS NULL
         RETURNING e.*, g.sequence AS group_sequence`,
        [cutoff, maxWindows],
      );
      const groups = new Map<string, { sequence: number; entries: DigestEntry[] }>();
      for (const row of rows) {
        const key = `${row.window_end}\u0000${row.window_start}\u0000${row.recipient}`;
        const group = groups.get(key) ?? { sequence: row.group_sequence, entries: [] };
        group.entries.push(toEntry(row));
        groups.set(key, group);
      }
      const ordered = [...groups.values()].sort(
        (a, b) =>
          a.entries[0].windowEnd - b.entries[0].windowEnd ||
          a.entries[0].windowStart - b.entries[0].windowStart ||
          a.entries[0].recipient.localeCompare(b.entries[0].recipient),
      );
      for (const { sequence, entries } of ordered) {
        const [{ recipient, windowStart, windowEnd }] = entries;
        // By name, then id: detections of the same name read in the same order for everyone.
        entries.sort(
          (a, b) =>
            a.detectionName.localeCompare(b.detectionName) ||
            a.detectionId.localeCompare(b.detectionId),
        );
        const delivery = render({ recipient, windowStart, windowEnd, sequence, entries });
        await insertDeliveries(tx, [delivery]);
        await tx.query(
          `INSERT INTO digests (recipient, window_start, window_end, sequence, notification_id, delivery_id)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [recipient, windowStart, windowEnd, sequence, delivery.notificationId, delivery.id],
        );
      }
      return ordered.length;
    });
  }
}
