import { createLogger } from '@vigil/config';
import type {
  ClaimCapacity,
  ClaimedDelivery,
  NewDelivery,
  SqlDeliveryStore,
} from '@vigil/control-plane';
import { DeliveryWorkerPool, attemptResult, someTargetHadNoRoom } from './delivery-worker-pool';
import { TargetConcurrencyLimits } from './target-concurrency-limits';

const fixedLimit = (n: number) =>
  new TargetConcurrencyLimits({ initial: n, max: n, slowMs: 60_000 });

const schedule = [200, 400];

const delivery = (id: string, target: string): ClaimedDelivery => ({
  id,
  notificationId: id,
  kind: 'detection',
  channel: 'webhook',
  target,
  payload: '{}',
  attemptCount: 0,
  seriesFailures: 0,
});

/**
 * A store that claims with `claimDue`, records every attempt, never has expired leases, and
 * notes what is handed back in `released`.
 */
function fakeStore(
  claimDue: (limit: number, lease: unknown, capacity: ClaimCapacity) => Promise<ClaimedDelivery[]>,
  released: string[] = [],
) {
  return {
    releaseExpiredLeases: async () => 0,
    claimDue,
    recordAttempts: async (records: readonly { id: string }[]) => new Set(records.map((r) => r.id)),
    release: async (ids: readonly string[]) => {
      released.push(...ids);
    },
  };
}

type Send = (delivery: ClaimedDelivery) => Promise<{ ok: true; statusCode: number; error: null }>;

/**
 * A sender that notes what it sent and answers 204: at once, or after `delayMs[id]` for the
 * deliveries listed there.
 */
const sendingInto =
  (sent: string[], delayMs: Record<string, number> = {}) =>
  async (d: ClaimedDelivery) => {
    sent.push(d.id);
    const delay = delayMs[d.id];
    if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
    return { ok: true as const, statusCode: 204, error: null };
  };

/** A pool over a fake store, sending every channel with `send`, one target limit for all. */
function poolOver(
  store: object,
  send: Send,
  options: { concurrency: number; targetLimit: number; leaseMs?: number; pollIntervalMs: number },
): DeliveryWorkerPool {
  const leaseMs = options.leaseMs ?? 600_000;
  return new DeliveryWorkerPool({
    store: store as unknown as SqlDeliveryStore,
    senders: { webhook: send, email: send },
    concurrency: options.concurrency,
    targetLimits: fixedLimit(options.targetLimit),
    retrySchedule: [],
    lease: { webhook: leaseMs, email: leaseMs },
    pollIntervalMs: options.pollIntervalMs,
    logger: createLogger('delivery-worker-pool-spec', 'silent'),
  });
}

describe('someTargetHadNoRoom', () => {
  const room = (free: Record<string, number>, defaultFree = 4): ClaimCapacity => ({
    free: new Map(Object.entries(free)),
    defaultFree,
  });

  it('is false when every target had room, so an empty claim says the queue is empty', () => {
    expect(someTargetHadNoRoom(room({}))).toBe(false);
    expect(someTargetHadNoRoom(room({ a: 3, b: 1 }))).toBe(false);
  });

  it('is true when a target had no room: the claim did not look at it', () => {
    expect(someTargetHadNoRoom(room({ a: 0 }))).toBe(true);
    expect(someTargetHadNoRoom(room({ a: -1, b: 2 }))).toBe(true);
  });
});

describe('attemptResult', () => {
  it('marks a successful attempt delivered', () => {
    expect(attemptResult({ ok: true, statusCode: 200, error: null }, 1, schedule)).toEqual({
      status: 'delivered',
    });
  });

  it('schedules the next retry of the series, then gives up', () => {
    const failed = { ok: false, statusCode: 500, error: 'HTTP 500' };
    const first = attemptResult(failed, 0, schedule);
    const second = attemptResult(failed, 1, schedule);
    expect(first.status === 'retry' && first.delayMs >= 200 && first.delayMs <= 220).toBe(true);
    expect(second.status === 'retry' && second.delayMs >= 400 && second.delayMs <= 440).toBe(true);
    expect(attemptResult(failed, 2, schedule)).toEqual({ status: 'dead' });
  });

  it('does not retry a permanent failure', () => {
    expect(
      attemptResult(
        { ok: false, statusCode: null, error: 'deleted', permanent: true },
        0,
        schedule,
      ),
    ).toEqual({ status: 'dead' });
  });
});

describe('DeliveryWorkerPool', () => {
  afterEach(() => jest.useRealTimers());

  it('does not lose a wake-up that arrives while it claims after an idle poll timed out', async () => {
    jest.useFakeTimers();
    let claims = 0;
    let finishSecondClaim: () => void = () => undefined;
    const store = fakeStore(async () => {
      claims += 1;
      if (claims === 2) await new Promise<void>((resolve) => (finishSecondClaim = resolve));
      return [];
    });
    const send = async () => ({ ok: true as const, statusCode: 204, error: null });
    const pool = poolOver(store, send, { concurrency: 2, targetLimit: 2, pollIntervalMs: 1_000 });
    pool.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(claims).toBe(1);

    // The idle wait ends by its timer; the next claim is in flight when new deliveries commit.
    await jest.advanceTimersByTimeAsync(1_000);
    expect(claims).toBe(2);
    pool.wake();
    finishSecondClaim();
    await jest.advanceTimersByTimeAsync(0);
    expect(claims).toBe(3);

    await pool.stop();
  });
  it('claims again on a freed slot after a claim found some, though fewer than it wanted', async () => {
    jest.useFakeTimers();
    let claims = 0;
    const store = fakeStore(async () => {
      claims += 1;
      // Nothing at first; then one retry has come due by the poll.
      return claims === 2 ? [delivery('retry', 'receiver')] : [];
    });
    const sent: string[] = [];
    const send = sendingInto(sent);
    const pool = poolOver(store, send, { concurrency: 2, targetLimit: 2, pollIntervalMs: 1_000 });
    pool.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(claims).toBe(1);
    await jest.advanceTimersByTimeAsync(1_000);
    // More may have come due with it: the slot it freed looked at once, not a poll later.
    expect(sent).toEqual(['retry']);
    expect(claims).toBe(3);
    await pool.stop();
  });

  it('claims again on a freed slot when the last claim stopped at a target at its limit', async () => {
    jest.useFakeTimers();
    const due = [delivery('a-0', 'a'), delivery('a-1', 'a')];
    const store = fakeStore(async (_limit, _lease, capacity) => {
      const room = capacity.free.get('a') ?? capacity.defaultFree;
      return room > 0 && due.length > 0 ? [due.shift()!] : [];
    });
    const sent: string[] = [];
    const send = sendingInto(sent);
    const pool = poolOver(store, send, { concurrency: 2, targetLimit: 1, pollIntervalMs: 60_000 });
    pool.start();
    await jest.advanceTimersByTimeAsync(0);
    // a-1 waited for a-0's slot only, not for the poll a minute later.
    expect(sent).toEqual(['a-0', 'a-1']);

    await pool.stop();
  });

  it('sends at most its share to one target and claims only what each target has room for', async () => {
    const due = [
      ...Array.from({ length: 5 }, (_, i) => delivery(`slow-${i}`, 'slow')),
      delivery('healthy-0', 'healthy'),
    ];
    const capacities: ClaimCapacity[] = [];
    const released: string[] = [];
    // Claims as SqlDeliveryStore.claimDue does: oldest first, within each target's room.
    const store = fakeStore(async (limit, _lease, capacity) => {
      capacities.push(capacity);
      const taken = new Map<string, number>();
      const claimed = due.filter((d) => {
        const room = capacity.free.get(d.target) ?? capacity.defaultFree;
        const n = taken.get(d.target) ?? 0;
        if (n >= room) return false;
        taken.set(d.target, n + 1);
        return true;
      });
      claimed.splice(limit);
      for (const d of claimed) due.splice(due.indexOf(d), 1);
      return claimed;
    }, released);
    const sent: string[] = [];
    const answerSlow: (() => void)[] = [];
    const answered = { ok: true as const, statusCode: 204, error: null };
    const send = (d: ClaimedDelivery) => {
      sent.push(d.id);
      // The slow target does not answer while the test looks.
      return d.target === 'slow'
        ? new Promise<typeof answered>((resolve) => answerSlow.push(() => resolve(answered)))
        : Promise.resolve(answered);
    };
    const pool = poolOver(store, send, { concurrency: 8, targetLimit: 2, pollIntervalMs: 10 });
    pool.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent.filter((id) => id.startsWith('slow'))).toHaveLength(2);
    expect(sent).toContain('healthy-0');
    // Nothing claimed beyond a target's room, so nothing handed back.
    expect(released).toEqual([]);
    expect(capacities.at(-1)!.free.get('slow')).toBe(0);

    answerSlow.forEach((answer) => answer());
    await pool.stop();
  });

  it('hands back a claimed delivery that waited past half its lease instead of sending it', async () => {
    jest.useFakeTimers();
    let due = [delivery('first', 'first-target'), delivery('second', 'second-target')];
    const released: string[] = [];
    const store = fakeStore(async () => {
      const claimed = due;
      due = [];
      return claimed;
    }, released);
    const sent: string[] = [];
    // The first send takes most of the lease; the second waits for its slot meanwhile.
    const send = sendingInto(sent, { first: 6_000 });
    const pool = poolOver(store, send, {
      concurrency: 1,
      targetLimit: 1,
      leaseMs: 10_000,
      pollIntervalMs: 60_000,
    });
    pool.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['first']);

    await jest.advanceTimersByTimeAsync(6_000);
    expect(sent).toEqual(['first']);
    expect(released).toEqual(['second']);
    await pool.stop();
  });

  it('claims again at once when a hand-back commits while an empty claim runs', async () => {
    jest.useFakeTimers();
    let claims = 0;
    let finishClaim: (claimed: ClaimedDelivery[]) => void = () => undefined;
    const store = fakeStore(async () => {
      claims += 1;
      if (claims === 1) return [delivery('first', 'first-target'), delivery('second', 'other')];
      if (claims === 3) return new Promise<ClaimedDelivery[]>((resolve) => (finishClaim = resolve));
      // The hand-back put it in the queue again.
      return claims === 4 ? [delivery('second', 'other')] : [];
    });
    const sent: string[] = [];
    const send = sendingInto(sent, { first: 5_500 });
    const pool = poolOver(store, send, {
      concurrency: 1,
      targetLimit: 2,
      leaseMs: 10_000,
      pollIntervalMs: 2_000,
    });
    pool.start();
    await jest.advanceTimersByTimeAsync(2_000);
    // The poll's claim found nothing: freed slots stop claiming.
    expect(claims).toBe(2);

    // The next poll's claim is running when 'second', stale in the queue, is handed back.
    await jest.advanceTimersByTimeAsync(2_000);
    expect(claims).toBe(3);
    await jest.advanceTimersByTimeAsync(1_500);
    expect(sent).toEqual(['first']);
    finishClaim([]);
    await jest.advanceTimersByTimeAsync(0);
    // Claimed and sent now, not at the next poll.
    expect(sent).toEqual(['first', 'second']);
    await pool.stop();
  });

  describe('reserve (deliveries inserted leased)', () => {
    const newDelivery = (id: string, target: string, extra: Partial<NewDelivery> = {}) =>
      ({
        id,
        notificationId: id,
        kind: 'detection',
        channel: 'webhook',
        target,
        subjectId: null,
        payload: {},
        ...extra,
      }) satisfies NewDelivery;
    /** What the insert returns for a delivery it created leased. */
    const leasedRow = (d: NewDelivery) => delivery(d.id, d.target);

    it('takes what it has room for, per target and in all, and sends it once committed without a claim', async () => {
      jest.useFakeTimers();
      const capacities: ClaimCapacity[] = [];
      const store = fakeStore(async (_limit, _lease, capacity) => {
        capacities.push(capacity);
        return [];
      });
      const sent: string[] = [];
      const send = sendingInto(sent);
      // Four rounds of one slot: room for four; two per target.
      const pool = poolOver(store, send, {
        concurrency: 1,
        targetLimit: 2,
        leaseMs: 30_000,
        pollIntervalMs: 60_000,
      });
      pool.start();
      await jest.advanceTimersByTimeAsync(0);
      const claims = capacities.length;

      const reservation = pool.reserve([
        newDelivery('a1', 'a'),
        newDelivery('a2', 'a'),
        newDelivery('a3', 'a'),
        newDelivery('b1', 'b', { skippedBecause: 'Filtered out.' }),
        newDelivery('c1', 'c', { channel: 'email' }),
        newDelivery('d1', 'd'),
        newDelivery('e1', 'e'),
      ]);
      expect(reservation.deliveries.map((d) => d.leaseMs)).toEqual([
        30_000,
        30_000,
        undefined, // target a is at its limit
        undefined, // skipped: never sent
        30_000,
        30_000,
        undefined, // the pool is full
      ]);
      const taken = reservation.deliveries.filter((d) => d.leaseMs !== undefined);
      // Held while the insert runs: a claim now leaves that room alone.
      pool.wake();
      await jest.advanceTimersByTimeAsync(0);
      expect(capacities.length).toBe(claims);
      expect(sent).toEqual([]);

      // a2 existed already (a replay): the insert did not lease it.
      reservation.settle(taken.filter((d) => d.id !== 'a2').map(leasedRow));
      await jest.advanceTimersByTimeAsync(0);
      expect(sent).toEqual(['a1', 'c1', 'd1']);
      await pool.stop();
    });

    it('does not claim on the slots they free once a claim found the queue empty; a wake-up or the poll does', async () => {
      jest.useFakeTimers();
      let claims = 0;
      const store = fakeStore(async () => {
        claims += 1;
        return claims === 1 ? [delivery('claimed', 'receiver')] : [];
      });
      const sent: string[] = [];
      const pool = poolOver(store, sendingInto(sent), {
        concurrency: 2,
        targetLimit: 2,
        pollIntervalMs: 1_000,
      });
      pool.start();
      await jest.advanceTimersByTimeAsync(0);
      // The claim found one: the slot it freed claimed again, and found nothing.
      expect(sent).toEqual(['claimed']);
      expect(claims).toBe(2);

      // A steady trickle: each delivery inserted leased and sent; its slot claims nothing.
      for (const id of ['d1', 'd2', 'd3']) {
        const reservation = pool.reserve([newDelivery(id, 'receiver')]);
        reservation.settle(reservation.deliveries.map(leasedRow));
        await jest.advanceTimersByTimeAsync(0);
      }
      expect(sent).toEqual(['claimed', 'd1', 'd2', 'd3']);
      expect(claims).toBe(2);

      // Deliveries committed pending wake it; the poll claims whatever else came due.
      pool.wake();
      await jest.advanceTimersByTimeAsync(0);
      expect(claims).toBe(3);
      await jest.advanceTimersByTimeAsync(1_000);
      expect(claims).toBe(4);
      await pool.stop();
    });

    it('frees the room when the insert fails, and takes nothing once stopped', async () => {
      jest.useFakeTimers();
      const released: string[] = [];
      const store = fakeStore(async () => [], released);
      const sent: string[] = [];
      const send = sendingInto(sent);
      const pool = poolOver(store, send, {
        concurrency: 1,
        targetLimit: 1,
        pollIntervalMs: 60_000,
      });
      pool.start();
      await jest.advanceTimersByTimeAsync(0);

      const failed = pool.reserve([newDelivery('x1', 'x')]);
      expect(failed.deliveries[0].leaseMs).toBeDefined();
      failed.cancel();
      // The target's room is back.
      const next = pool.reserve([newDelivery('x2', 'x')]);
      expect(next.deliveries[0].leaseMs).toBeDefined();

      await pool.stop();
      // Committed after the pool stopped: handed back at once rather than left to its lease.
      next.settle([leasedRow(next.deliveries[0])]);
      await jest.advanceTimersByTimeAsync(0);
      expect(sent).toEqual([]);
      expect(released).toEqual(['x2']);
      expect(pool.reserve([newDelivery('x3', 'x')]).deliveries[0].leaseMs).toBeUndefined();
    });
  });
});
