import { type SqlClient, type SqlExecutor } from '../sql/sql-client';
import {
  type AttemptResult,
  type ClaimedDelivery,
  type DeliveryAttempt,
  type DeliveryChannel,
  type DeliveryFilter,
  type DeliveryKind,
  type DeliveryStatus,
  type DeliveryView,
  type DigestEntry,
  type DigestGroup,
  type LeaseDurations,
  type NewDelivery,
} from './delivery';

/** Serializes digest closers of every notifier instance (one closes, the others skip a turn). */
const DIGEST_CLOSER_LOCK_KEY = '7236485513041850378';
/** Keeps multi-row statements well under PostgreSQL's 65,535 parameters. */
const ROWS_PER_STATEMENT = 1000;
/** How many more deliveries each target may take in one claim (see claimDue). */
export interface ClaimCapacity {
  /** Room per target (0 or less: none), for targets whose room is not `defaultFree`. */
  free: ReadonlyMap<string, number>;
  /** Room of every target not listed. */
  defaultFree: number;
}

/** One attempt of a leased delivery and the state it leads to. */
export interface RecordedAttempt {
  id: string;
  attempt: Omit<DeliveryAttempt, 'attempt'>;
  result: AttemptResult;
}

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
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
}

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
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    deliveredAt: date(row.delivered_at),
  };
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

/** `($1, $2, ...), ($n+1, ...)` for a multi-row INSERT. */
function valuesList(rows: number, columns: number, casts: string[] = []): string {
  return Array.from({ length: rows }, (_, r) => {
    const cells = Array.from(
      { length: columns },
      (_, c) => `$${r * columns + c + 1}${casts[c] ?? ''}`,
    );
    return `(${cells.join(', ')})`;
  }).join(', ');
}

/**
 * The delivery log of DESIGN §5 (migration 0003). All scheduling uses the database clock, so
 * several notifier instances agree on what is due.
 */
export class SqlDeliveryStore {
  constructor(private readonly sql: SqlClient) {}

  /** Creates deliveries; one that exists for the same notification and target is left alone. */
  async insert(tx: SqlExecutor, deliveries: readonly NewDelivery[]): Promise<number> {
    let inserted = 0;
    for (let i = 0; i < deliveries.length; i += ROWS_PER_STATEMENT) {
      const chunk = deliveries.slice(i, i + ROWS_PER_STATEMENT);
      const params = chunk.flatMap((d) => [
        d.id,
        d.notificationId,
        d.kind,
        d.channel,
        d.target,
        d.subjectId,
        JSON.stringify(d.payload),
      ]);
      const { rowCount } = await tx.query(
        `INSERT INTO deliveries
           (id, notification_id, kind, channel, target, subject_id, payload)
         VALUES ${valuesList(chunk.length, 7, ['::uuid', '', '', '', '', '', '::json'])}
         ON CONFLICT (notification_id, channel, target) DO NOTHING`,
        params,
      );
      inserted += rowCount;
    }
    return inserted;
  }

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
   * holds the lock).
   */
  async closeDigests(
    cutoff: number,
    maxDigests: number,
    render: (group: DigestGroup) => NewDelivery,
  ): Promise<number> {
    return this.sql.transaction(async (tx) => {
      const { rows: lock } = await tx.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_xact_lock($1::bigint) AS locked',
        [DIGEST_CLOSER_LOCK_KEY],
      );
      if (!lock[0].locked) return 0;
      const { rows: groups } = await tx.query<{
        recipient: string;
        window_start: string;
        window_end: string;
        sequence: number;
      }>(
        `SELECT e.recipient, e.window_start, e.window_end,
                COALESCE((SELECT max(d.sequence) + 1 FROM digests d
                          WHERE d.recipient = e.recipient AND d.window_start = e.window_start
                            AND d.window_end = e.window_end), 0) AS sequence
         FROM digest_entries e
         WHERE e.digest_sequence IS NULL AND e.window_end <= $1
         GROUP BY e.recipient, e.window_start, e.window_end
         ORDER BY e.window_end, e.recipient
         LIMIT $2`,
        [cutoff, maxDigests],
      );
      for (const group of groups) {
        const key = [group.recipient, group.window_start, group.window_end];
        const { rows } = await tx.query<DigestEntryRow>(
          `UPDATE digest_entries SET digest_sequence = $4
           WHERE recipient = $1 AND window_start = $2 AND window_end = $3
             AND digest_sequence IS NULL
           RETURNING *`,
          [...key, group.sequence],
        );
        const entries = rows
          .map(toEntry)
          .sort((a, b) => a.detectionName.localeCompare(b.detectionName));
        const delivery = render({
          recipient: group.recipient,
          windowStart: Number(group.window_start),
          windowEnd: Number(group.window_end),
          sequence: group.sequence,
          entries,
        });
        await this.insert(tx, [delivery]);
        await tx.query(
          `INSERT INTO digests (recipient, window_start, window_end, sequence, notification_id, delivery_id)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [...key, group.sequence, delivery.notificationId, delivery.id],
        );
      }
      return groups.length;
    });
  }

  /**
   * Leases up to `limit` due deliveries for `lease` (one duration, or one per channel: a
   * webhook send is bounded by its timeout, an SMTP send takes longer). SKIP LOCKED lets every
   * worker and every instance claim different rows without waiting on each other.
   *
   * `capacity` says how many more each target may take now: `free` per target, `defaultFree`
   * for targets not listed, and targets with no room are not looked at. Claiming more than a
   * target can take only to hand the rest back turned every claim into two writes of a hundred
   * rows when the backlog belonged to a few receivers (and left the table full of dead rows).
   */
  async claimDue(
    limit: number,
    lease: number | LeaseDurations,
    capacity: ClaimCapacity = { free: new Map(), defaultFree: limit },
  ): Promise<ClaimedDelivery[]> {
    const { webhook, email } = typeof lease === 'number' ? { webhook: lease, email: lease } : lease;
    const capped = [...capacity.free].filter(([, free]) => free > 0);
    const full = [...capacity.free].filter(([, free]) => free <= 0).map(([target]) => target);
    const { rows } = await this.sql.query<{
      id: string;
      notification_id: string;
      kind: DeliveryKind;
      channel: DeliveryChannel;
      target: string;
      payload: string;
      attempt_count: number;
      series_failures: number;
    }>(
      `WITH caps AS (
         SELECT * FROM unnest($5::text[], $6::int[]) AS c(target, free)),
       scanned AS (
         SELECT id, target, next_attempt_at FROM deliveries
         WHERE status = 'pending' AND next_attempt_at <= now()
           AND target <> ALL($3::text[])
         ORDER BY next_attempt_at
         LIMIT $7),
       picked AS (
         SELECT s.id FROM (
           SELECT id, target, next_attempt_at,
                  row_number() OVER (PARTITION BY target ORDER BY next_attempt_at) AS rank
           FROM scanned) s
         LEFT JOIN caps c ON c.target = s.target
         WHERE s.rank <= COALESCE(c.free, $8::int)
         ORDER BY s.next_attempt_at
         LIMIT $1),
       due AS (
         SELECT id FROM deliveries
         WHERE id IN (SELECT id FROM picked) AND status = 'pending'
         FOR UPDATE SKIP LOCKED)
       UPDATE deliveries d
       SET status = 'delivering',
           lease_until = now() + (CASE WHEN d.channel = 'webhook' THEN $2::bigint ELSE $4::bigint END)
                                 * interval '1 millisecond',
           updated_at = now()
       FROM due
       WHERE d.id = due.id
       RETURNING d.id, d.notification_id, d.kind, d.channel, d.target, d.payload::text AS payload,
                 d.attempt_count, d.series_failures`,
      [
        limit,
        webhook,
        full,
        email,
        capped.map(([target]) => target),
        capped.map(([, free]) => free),
        4 * limit,
        capacity.defaultFree,
      ],
    );
    return rows.map((row) => ({
      id: row.id,
      notificationId: row.notification_id,
      kind: row.kind,
      channel: row.channel,
      target: row.target,
      payload: row.payload,
      attemptCount: row.attempt_count,
      seriesFailures: row.series_failures,
    }));
  }

  /**
   * Records one attempt of a leased delivery and its next state. Returns false when the lease
   * was lost (expired and taken over), in which case nothing is written.
   */
  async recordAttempt(
    id: string,
    attempt: Omit<DeliveryAttempt, 'attempt'>,
    result: AttemptResult,
  ): Promise<boolean> {
    const recorded = await this.recordAttempts([{ id, attempt, result }]);
    return recorded.has(id.toLowerCase());
  }

  /**
   * Records attempts of several leased deliveries in one statement (one commit instead of one
   * per attempt: at hundreds of deliveries a second the commits are what the database spends
   * its time on). Returns the ids recorded, in lower case; a delivery whose lease was lost is left alone.
   */
  async recordAttempts(records: readonly RecordedAttempt[]): Promise<Set<string>> {
    const recorded = new Set<string>();
    const unique = [...new Map(records.map((r) => [r.id, r])).values()];
    for (let i = 0; i < unique.length; i += ROWS_PER_STATEMENT) {
      const chunk = unique.slice(i, i + ROWS_PER_STATEMENT);
      const { rows } = await this.sql.query<{ delivery_id: string }>(
        `WITH input AS (
           SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::timestamptz[],
                                $5::int[], $6::int[], $7::text[])
             AS t(id, status, delay_ms, attempted_at, status_code, latency_ms, error)),
         updated AS (
           UPDATE deliveries d SET
             status = i.status,
             attempt_count = d.attempt_count + 1,
             series_failures = CASE WHEN i.status = 'delivered' THEN d.series_failures
                                    ELSE d.series_failures + 1 END,
             next_attempt_at = CASE WHEN i.delay_ms IS NULL THEN NULL
                                    ELSE now() + i.delay_ms * interval '1 millisecond' END,
             lease_until = NULL,
             last_error = i.error,
             delivered_at = CASE WHEN i.status = 'delivered' THEN i.attempted_at
                                 ELSE d.delivered_at END,
             updated_at = now()
           FROM input i
           WHERE d.id = i.id AND d.status = 'delivering'
           RETURNING d.id, d.attempt_count, i.attempted_at, i.status_code, i.latency_ms, i.error)
         INSERT INTO delivery_attempts
           (delivery_id, attempt, attempted_at, status_code, latency_ms, error)
         SELECT id, attempt_count, attempted_at, status_code, latency_ms, error FROM updated
         RETURNING delivery_id`,
        [
          chunk.map((r) => r.id),
          chunk.map((r) => (r.result.status === 'retry' ? 'pending' : r.result.status)),
          chunk.map((r) => (r.result.status === 'retry' ? r.result.delayMs : null)),
          chunk.map((r) => r.attempt.attemptedAt),
          chunk.map((r) => r.attempt.statusCode),
          chunk.map((r) => Math.max(0, Math.round(r.attempt.latencyMs))),
          chunk.map((r) => r.attempt.error),
        ],
      );
      for (const row of rows) recorded.add(row.delivery_id.toLowerCase());
    }
    return recorded;
  }

  /** Gives back leased deliveries that were not attempted (shutdown), due at once. */
  async release(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.query(
      `UPDATE deliveries SET status = 'pending', lease_until = NULL, updated_at = now()
       WHERE id = ANY($1::uuid[]) AND status = 'delivering'`,
      [ids],
    );
  }

  /** Returns deliveries whose worker died mid-attempt to the queue; returns how many. */
  async releaseExpiredLeases(): Promise<number> {
    const { rowCount } = await this.sql.query(
      `UPDATE deliveries SET status = 'pending', lease_until = NULL, next_attempt_at = now(),
              updated_at = now()
       WHERE status = 'delivering' AND lease_until < now()`,
    );
    return rowCount;
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

  async find(id: string): Promise<DeliveryView | null> {
    if (!UUID.test(id)) return null;
    const { rows } = await this.sql.query<DeliveryRow>('SELECT * FROM deliveries WHERE id = $1', [
      id,
    ]);
    return rows.length === 0 ? null : toView(rows[0]);
  }

  /**
   * Newest first, optionally narrowed to one status, notification, subject (the detection or
   * investigation), channel or target (provider id or recipient). The subject and target
   * filters have their own indexes (migration 0005), so a page reads only its rows.
   */
  async list(filter: DeliveryFilter = {}): Promise<DeliveryView[]> {
    const { rows } = await this.sql.query<DeliveryRow>(
      `SELECT * FROM deliveries
       WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR notification_id = $2)
         AND ($3::text IS NULL OR subject_id = $3) AND ($4::text IS NULL OR channel = $4)
         AND ($5::text IS NULL OR target = $5)
       ORDER BY created_at DESC, id
       LIMIT $6`,
      [
        filter.status ?? null,
        filter.notificationId ?? null,
        filter.subjectId ?? null,
        filter.channel ?? null,
        filter.target ?? null,
        filter.limit ?? 100,
      ],
    );
    return rows.map(toView);
  }

  async attempts(id: string): Promise<DeliveryAttempt[]> {
    if (!UUID.test(id)) return [];
    const { rows } = await this.sql.query<{
      attempt: number;
      attempted_at: Date;
      status_code: number | null;
      latency_ms: number;
      error: string | null;
    }>(
      `SELECT attempt, attempted_at, status_code, latency_ms, error FROM delivery_attempts
       WHERE delivery_id = $1 ORDER BY attempt`,
      [id],
    );
    return rows.map((row) => ({
      attempt: row.attempt,
      attemptedAt: new Date(row.attempted_at),
      statusCode: row.status_code,
      latencyMs: row.latency_ms,
      error: row.error,
    }));
  }

  /** The stored payload of a delivery, as sent. */
  async payloadOf(id: string): Promise<unknown> {
    if (!UUID.test(id)) return null;
    const { rows } = await this.sql.query<{ payload: unknown }>(
      'SELECT payload FROM deliveries WHERE id = $1',
      [id],
    );
    return rows[0]?.payload ?? null;
  }
}
