import { healthChangeOf, type HealthChange, type HealthOutcome } from '@vigil/notification-policy';
import { type SqlClient, type SqlExecutor } from '../sql/sql-client';
import { SqlWebhookProviderStore } from '../webhook-providers/sql-webhook-provider-store';
import {
  type AttemptResult,
  type ClaimedDelivery,
  type DeliveryAttempt,
  type DeliveryChannel,
  type DeliveryKind,
  type LeaseDurations,
  type NewDelivery,
} from './delivery';
import { insertDeliveries, type InsertedDeliveries } from './insert-deliveries';
import { ROWS_PER_STATEMENT } from './values-list';

/** How many more deliveries each target may take in one claim (see claimDue). */
export interface ClaimCapacity {
  /** Room per target (0 or less: none), for targets whose room is not `defaultFree`. */
  free: ReadonlyMap<string, number>;
  /** Room of every target not listed. */
  defaultFree: number;
}

/**
 * The session settings a connection that claims deliveries should have. The claim must read due
 * deliveries in order and stop at its limit; when the table's statistics are older than a burst
 * (a receiver back after an outage, a table not analysed yet) the planner expects a handful of
 * due rows and prefers a bitmap scan that reads and sorts every due row on every claim (20 ms
 * at 20,000 due instead of 1 ms). The notifier's other queries read by key or in index order,
 * which a bitmap scan does not make cheaper.
 */
export const DELIVERY_CLAIM_SESSION_SETTINGS: Readonly<Record<string, string>> = {
  enable_bitmapscan: 'off',
};

/** One attempt of a leased delivery and the state it leads to. */
export interface RecordedAttempt {
  id: string;
  attempt: Omit<DeliveryAttempt, 'attempt'>;
  result: AttemptResult;
}

/**
 * The notifier's outbox (DESIGN §5, migration 0003): deliveries go in, workers lease the due
 * ones and record each attempt. All scheduling uses the database clock, so several notifier
 * instances agree on what is due.
 */
export class SqlDeliveryStore {
  constructor(private readonly sql: SqlClient) {}

  /** Creates deliveries; one that exists for the same notification and target is left alone. */
  insert(tx: SqlExecutor, deliveries: readonly NewDelivery[]): Promise<InsertedDeliveries> {
    return insertDeliveries(tx, deliveries);
  }

  /**
   * `insert`, all or nothing, when nothing else goes in with them: deliveries that fit one
   * statement are written by that statement alone (atomic by itself), without the BEGIN and
   * COMMIT round trips a transaction adds to every command's way to its webhook.
   */
  insertAlone(deliveries: readonly NewDelivery[]): Promise<InsertedDeliveries> {
    if (deliveries.length <= ROWS_PER_STATEMENT) return insertDeliveries(this.sql, deliveries);
    return this.sql.transaction((tx) => insertDeliveries(tx, deliveries));
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
   * How many deliveries are due now (pending, their time come) and how many are dead: the
   * backlog the notifier's metrics report. Both counts read a partial index.
   */
  async countBacklog(): Promise<{ due: number; dead: number }> {
    const { rows } = await this.sql.query<{ due: string; dead: string }>(
      `SELECT
         (SELECT count(*) FROM deliveries WHERE status = 'pending' AND next_attempt_at <= now()) AS due,
         (SELECT count(*) FROM deliveries WHERE status = 'dead') AS dead`,
    );
    return { due: Number(rows[0].due), dead: Number(rows[0].dead) };
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
   *
   * The webhook attempts also move their providers' health counters (endpoint health): after
   * the attempts are in, so a failure there never loses an attempt; the counters may then lag
   * by one batch, which the health rules (days, or tens of dead deliveries) do not notice.
   */
  async recordAttempts(records: readonly RecordedAttempt[]): Promise<Set<string>> {
    const recorded = new Set<string>();
    const outcomesByProvider = new Map<string, HealthOutcome[]>();
    const unique = [...new Map(records.map((r) => [r.id, r])).values()];
    for (let i = 0; i < unique.length; i += ROWS_PER_STATEMENT) {
      const chunk = unique.slice(i, i + ROWS_PER_STATEMENT);
      const { rows } = await this.sql.query<{
        delivery_id: string;
        target: string;
        channel: DeliveryChannel;
        status: 'pending' | 'delivered' | 'dead';
        attempted_at: Date;
      }>(
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
           RETURNING d.id, d.attempt_count, d.target, d.channel, d.status, i.attempted_at,
                     i.status_code, i.latency_ms, i.error),
         inserted AS (
           INSERT INTO delivery_attempts
             (delivery_id, attempt, attempted_at, status_code, latency_ms, error)
           SELECT id, attempt_count, attempted_at, status_code, latency_ms, error FROM updated
           RETURNING delivery_id)
         SELECT i.delivery_id, u.target, u.channel, u.status, u.attempted_at
         FROM inserted i JOIN updated u ON u.id = i.delivery_id`,
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
      for (const row of rows) {
        recorded.add(row.delivery_id.toLowerCase());
        if (row.channel !== 'webhook') continue;
        const outcomes = outcomesByProvider.get(row.target) ?? [];
        outcomes.push({
          at: new Date(row.attempted_at),
          result: row.status === 'pending' ? 'retry' : row.status,
        });
        outcomesByProvider.set(row.target, outcomes);
      }
    }
    if (outcomesByProvider.size > 0) {
      const changes = new Map<string, HealthChange>();
      for (const [provider, outcomes] of outcomesByProvider) {
        changes.set(provider, healthChangeOf(outcomes));
      }
      await new SqlWebhookProviderStore(this.sql).applyHealthChanges(changes);
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
}
