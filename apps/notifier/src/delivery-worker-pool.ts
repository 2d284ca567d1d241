import type { Logger } from '@vigil/config';
import {
  nextRetryDelay,
  type AttemptResult,
  type ClaimCapacity,
  type ClaimedDelivery,
  type DeliveryChannel,
  type LeaseDurations,
  type NewDelivery,
  type SqlDeliveryStore,
} from '@vigil/control-plane';
import { AttemptRecorder } from './attempt-recorder';
import type { DirectDispatch, DispatchReservation } from './direct-dispatch';
import {
  attemptOutcomeOf,
  type DeliverySender,
  type SendFailure,
  type SendOutcome,
} from './send-outcome';
import type { TargetConcurrencyLimits } from './target-concurrency-limits';

export interface DeliveryWorkerPoolOptions {
  store: SqlDeliveryStore;
  senders: { webhook: DeliverySender; email: DeliverySender };
  concurrency: number;
  /** How many may be in flight (or waiting for a slot) per target, adapted to its answers. */
  targetLimits: TargetConcurrencyLimits;
  retrySchedule: readonly number[];
  /** How long a claimed delivery stays leased, per channel; longer than any send can take. */
  lease: LeaseDurations;
  /** How often to look for due deliveries when nothing wakes the pool. */
  pollIntervalMs: number;
  logger: Logger;
  /** Told of every attempt and every final outcome (metrics). */
  observer?: DeliveryObserver;
  /** Told each time the loop goes round, claiming or idle (liveness). */
  heartbeat?: { beat(): void };
}

/** What the pool reports of its deliveries; no provider or recipient is ever named. */
export interface DeliveryObserver {
  attempted(channel: DeliveryChannel, outcome: 'success' | SendFailure, seconds: number): void;
  finished(channel: DeliveryChannel, status: 'delivered' | 'dead'): void;
  digestSent(): void;
}

/** The next state of a delivery after one attempt (DESIGN §5). Pure. */
export function attemptResult(
  outcome: SendOutcome,
  seriesFailuresBefore: number,
  schedule: readonly number[],
): AttemptResult {
  if (outcome.ok) return { status: 'delivered' };
  if (outcome.permanent) return { status: 'dead' };
  const delayMs = nextRetryDelay(schedule, seriesFailuresBefore + 1);
  return delayMs === null ? { status: 'dead' } : { status: 'retry', delayMs };
}

/**
 * Whether some target had no room in `capacity`, so a claim given it did not look at that
 * target's due deliveries: an empty claim then does not say the queue is empty. Judged on the
 * room the claim was given, not on the pool's state after it (sends that end while the claim
 * runs free room it could not use). Pure.
 */
export function someTargetHadNoRoom(capacity: ClaimCapacity): boolean {
  for (const free of capacity.free.values()) if (free <= 0) return true;
  return false;
}

/** A claimed delivery waiting for a slot, with when it was claimed (performance.now()). */
interface QueuedDelivery {
  delivery: ClaimedDelivery;
  claimedAt: number;
}

/**
 * How many rounds of `concurrency` the pool holds, in flight and queued. A claim takes a few
 * milliseconds and a local receiver answers in one: with one round queued, slots sat idle while
 * the next claim ran (bench:notifier, two runs: 1,990 and 1,688 deliveries/s with one round
 * queued, 2,615 and 1,856 with three). fillSlots keeps the deeper queue within the lease.
 */
const ROUNDS_HELD = 4;

/**
 * Sends due deliveries with up to `concurrency` in flight. Each delivery is claimed (leased)
 * from Postgres, or taken as it is created (reserve: inserted leased), sent on its own, and its
 * attempt recorded (attempts that finish together share a write); a free slot is refilled at once.
 * One target holds at most its current limit of slots (TargetConcurrencyLimits: more for a
 * receiver that answers fast, one for an endpoint that fails or crawls): its other deliveries
 * are not claimed (or handed back at once) while it is at that limit, so endpoints that never
 * answer cannot take every slot and delay the deliveries to healthy ones. Several instances share the work through
 * SKIP LOCKED; a lease left by a crashed worker expires and the delivery is sent again.
 */
export class DeliveryWorkerPool implements DirectDispatch {
  /** Deliveries being sent: what `concurrency` bounds. */
  private sending = 0;
  /** Room held for deliveries being inserted leased (see reserve). */
  private reserved = 0;
  /** Every attempt not yet recorded, sending or not. */
  private readonly unrecorded = new Set<Promise<void>>();
  /** Claimed (leased) deliveries waiting for a free slot. */
  private queued: QueuedDelivery[] = [];
  /** Deliveries in flight or queued, per target. */
  private readonly busyByTarget = new Map<string, number>();
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  /** A wake-up that came while the loop was busy, so the next idle wait is skipped. */
  private wokenWhileBusy = false;
  /**
   * Whether a claim may find due deliveries: false once a claim found none and no target's room
   * limited it (the queue had no more), until a wake-up says new ones were committed, a claim
   * finds some, or some are put back (the lease sweep, deliveries handed back). While false a
   * freed slot does not claim: at a steady trickle nearly every delivery is sent without a
   * claim, and the claim each freed slot ran found nothing. Deliveries that come due later
   * (retries) or that other instances queue come with the poll, as for an idle pool.
   */
  private mayHaveDue = true;
  /** Wake-ups so far, so a claim that raced one does not conclude the queue is empty. */
  private wakeUps = 0;
  private lastLeaseSweep = 0;

  private readonly attempts: AttemptRecorder;

  constructor(private readonly options: DeliveryWorkerPoolOptions) {
    this.attempts = new AttemptRecorder((records) => options.store.recordAttempts(records));
  }

  /** Deliveries being sent right now. */
  get inFlight(): number {
    return this.sending;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Looks for due deliveries now (new ones were just committed). */
  wake(): void {
    this.mayHaveDue = true;
    this.wakeUps += 1;
    this.turnLoop();
  }

  /** Ends the loop's idle wait now, or skips the next one if it is busy. */
  private turnLoop(): void {
    if (this.wakeUp) this.wakeUp();
    else this.wokenWhileBusy = true;
  }

  /** Stops claiming and waits for the attempts in flight to be recorded. */
  async stop(): Promise<void> {
    this.running = false;
    this.turnLoop();
    await this.loop;
    await Promise.allSettled([...this.unrecorded]);
    // Claimed but not started: back to the queue now rather than when their lease expires.
    const unsent = this.queued.map(({ delivery }) => delivery.id);
    this.queued = [];
    this.busyByTarget.clear();
    await this.handBack(unsent);
  }

  /** Gives claimed deliveries back to the queue; if that fails, their leases expire instead. */
  private handBack(ids: readonly string[]): Promise<void> {
    return this.options.store.release(ids).then(
      () => {
        // Due again, as if just committed: a claim running now may have missed them, and an
        // empty one must not conclude the queue is empty.
        this.wake();
      },
      (error: unknown) => {
        this.options.logger.warn({ err: error }, 'could not release claimed deliveries');
      },
    );
  }

  private async run(): Promise<void> {
    const { store, concurrency, lease, pollIntervalMs, logger } = this.options;
    while (this.running) {
      this.options.heartbeat?.beat();
      // Claim rounds ahead, so a slot that frees is refilled from memory rather than by one
      // more round trip per delivery.
      const wanted = this.room();
      let claimed: ClaimedDelivery[] = [];
      try {
        if (Date.now() - this.lastLeaseSweep > Math.min(lease.webhook, lease.email) / 4) {
          this.lastLeaseSweep = Date.now();
          const released = await store.releaseExpiredLeases();
          if (released > 0) {
            this.mayHaveDue = true;
            logger.warn({ released }, 'expired delivery leases released');
          }
        }
        if (wanted >= concurrency / 2 || (wanted > 0 && this.queued.length === 0)) {
          const wakeUpsBefore = this.wakeUps;
          const claimedAt = performance.now();
          const capacity = this.claimCapacity();
          claimed = await store.claimDue(wanted, lease, capacity);
          await this.enqueue(claimed, claimedAt);
          // Only a claim that found nothing, with room at every target and no wake-up while it
          // ran, says the queue is empty; one that found some (retries come due, another
          // instance's deliveries) lets freed slots claim again.
          if (claimed.length > 0) this.mayHaveDue = true;
          else if (this.wakeUps === wakeUpsBefore && !someTargetHadNoRoom(capacity)) {
            this.mayHaveDue = false;
          }
        }
      } catch (error) {
        logger.error({ err: error }, 'could not claim deliveries');
      }
      this.fillSlots();
      // A full claim means more may be due: go again as soon as slots free.
      if (claimed.length > 0 && claimed.length === wanted) continue;
      await this.idle(pollIntervalMs);
    }
  }

  /** How many more deliveries the pool may hold, in flight, queued or reserved. */
  private room(): number {
    return (
      ROUNDS_HELD * this.options.concurrency - this.sending - this.queued.length - this.reserved
    );
  }

  /**
   * Takes the deliveries being created that the pool has room for (in all and per target, as a
   * claim would): they are inserted leased and queued once the insert commits. The others go in
   * pending, for a claim. A skipped delivery is never sent, and a stopped pool takes nothing.
   */
  reserve(deliveries: readonly NewDelivery[]): DispatchReservation {
    const claimedAt = performance.now();
    const { targetLimits, lease } = this.options;
    let room = this.running ? this.room() : 0;
    const taken: NewDelivery[] = [];
    const rows = deliveries.map((delivery) => {
      if (room <= 0 || delivery.skippedBecause !== undefined) return delivery;
      const busy = this.busyByTarget.get(delivery.target) ?? 0;
      if (busy >= targetLimits.limitOf(delivery.target)) return delivery;
      this.busyByTarget.set(delivery.target, busy + 1);
      room -= 1;
      taken.push(delivery);
      return { ...delivery, leaseMs: lease[delivery.channel] };
    });
    this.reserved += taken.length;
    let open = taken.length > 0;
    const close = () => {
      if (!open) return false;
      open = false;
      this.reserved -= taken.length;
      return true;
    };
    return {
      deliveries: rows,
      settle: (leased) => {
        if (!close()) return;
        const byId = new Map(leased.map((delivery) => [delivery.id.toLowerCase(), delivery]));
        const unsent: string[] = [];
        for (const delivery of taken) {
          const claimed = byId.get(delivery.id.toLowerCase());
          // Not created (a replay): it was never leased and holds no room.
          if (!claimed) this.untrack(delivery.target);
          else if (this.running) this.queued.push({ delivery: claimed, claimedAt });
          else {
            this.untrack(delivery.target);
            unsent.push(claimed.id);
          }
        }
        // Stopped while the insert ran: back to the queue now rather than when the lease ends.
        if (unsent.length > 0) void this.handBack(unsent);
        if (this.running) this.fillSlots();
      },
      cancel: () => {
        if (!close()) return;
        for (const delivery of taken) this.untrack(delivery.target);
      },
    };
  }

  /** What each target may still take: its limit less what it holds (in flight or queued). */
  private claimCapacity(): ClaimCapacity {
    const { targetLimits } = this.options;
    const free = new Map<string, number>();
    for (const target of [...this.busyByTarget.keys(), ...targetLimits.adjustedTargets()]) {
      free.set(target, targetLimits.limitOf(target) - (this.busyByTarget.get(target) ?? 0));
    }
    return { free, defaultFree: targetLimits.initial };
  }

  /** Queues the claimed deliveries within their target's share; hands the rest back. */
  private async enqueue(claimed: readonly ClaimedDelivery[], claimedAt: number): Promise<void> {
    const excess: string[] = [];
    for (const delivery of claimed) {
      const busy = this.busyByTarget.get(delivery.target) ?? 0;
      if (busy >= this.options.targetLimits.limitOf(delivery.target)) {
        excess.push(delivery.id);
        continue;
      }
      this.busyByTarget.set(delivery.target, busy + 1);
      this.queued.push({ delivery, claimedAt });
    }
    await this.options.store.release(excess);
    // Due again: the next freed slot may claim them.
    if (excess.length > 0) this.mayHaveDue = true;
  }

  /**
   * Starts queued deliveries in free slots. One that waited past half its lease is handed back
   * instead: the lease (twice the longest send, and a margin) must outlast the send and its
   * record, or the lease sweep would put the delivery back while it is sent and it would go out
   * twice. Only a queue stuck behind slow sends waits that long.
   */
  private fillSlots(): void {
    const stale: string[] = [];
    while (this.sending < this.options.concurrency && this.queued.length > 0) {
      const { delivery, claimedAt } = this.queued.shift()!;
      if (performance.now() - claimedAt > this.options.lease[delivery.channel] / 2) {
        this.untrack(delivery.target);
        stale.push(delivery.id);
        continue;
      }
      this.dispatch(delivery);
    }
    if (stale.length === 0) return;
    this.options.logger.warn(
      { count: stale.length },
      'claimed deliveries waited too long; handed back',
    );
    void this.handBack(stale);
  }

  /** One delivery of `target` fewer in flight or queued. */
  private untrack(target: string): void {
    const busy = (this.busyByTarget.get(target) ?? 1) - 1;
    if (busy > 0) this.busyByTarget.set(target, busy);
    else this.busyByTarget.delete(target);
  }

  /** Waits for a wake-up, a freed slot or the poll interval, whichever comes first. */
  private idle(ms: number): Promise<void> {
    if (this.wokenWhileBusy || !this.running) {
      this.wokenWhileBusy = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      // Cleared however the wait ends: a stale wakeUp left by the timer would swallow the next
      // wake() while the loop is busy claiming, and that delivery would wait a poll interval.
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  private dispatch(delivery: ClaimedDelivery): void {
    this.sending += 1;
    let sent = false;
    // The slot frees when the answer is in, not when it is recorded: recording joins the next
    // shared write, and a sender should not sit idle waiting for it.
    const freeSlot = () => {
      if (sent) return;
      sent = true;
      this.sending -= 1;
      this.untrack(delivery.target);
      if (this.running) this.fillSlots();
      if (this.mayHaveDue) this.turnLoop();
    };
    const task = this.attempt(delivery, freeSlot).finally(() => {
      freeSlot();
      this.unrecorded.delete(task);
    });
    this.unrecorded.add(task);
  }

  private async attempt(delivery: ClaimedDelivery, onAnswered: () => void): Promise<void> {
    const { senders, retrySchedule, targetLimits, logger } = this.options;
    const attemptedAt = new Date();
    const started = performance.now();
    let outcome: SendOutcome;
    try {
      outcome = await senders[delivery.channel](delivery);
    } catch (error) {
      outcome = {
        ok: false,
        statusCode: null,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    const latencyMs = performance.now() - started;
    this.options.observer?.attempted(delivery.channel, attemptOutcomeOf(outcome), latencyMs / 1000);
    targetLimits.record(
      delivery.target,
      { ok: outcome.ok, latencyMs },
      this.busyByTarget.get(delivery.target) ?? 1,
    );
    onAnswered();
    const result = attemptResult(outcome, delivery.seriesFailures, retrySchedule);
    try {
      const recorded = await this.attempts.record({
        id: delivery.id,
        attempt: { attemptedAt, statusCode: outcome.statusCode, latencyMs, error: outcome.error },
        result,
      });
      if (!recorded)
        logger.warn(
          { deliveryId: delivery.id },
          'delivery lease lost before the attempt was recorded',
        );
    } catch (error) {
      // The lease expires and the delivery is attempted again: at least once, never lost.
      logger.error({ err: error, deliveryId: delivery.id }, 'could not record a delivery attempt');
      return;
    }
    if (result.status !== 'retry') this.options.observer?.finished(delivery.channel, result.status);
    if (result.status === 'delivered' && delivery.kind === 'digest') {
      this.options.observer?.digestSent();
    }
    const log = {
      deliveryId: delivery.id,
      channel: delivery.channel,
      target: delivery.target,
      status: result.status,
      statusCode: outcome.statusCode,
      error: outcome.error,
      latencyMs: Math.round(latencyMs),
    };
    if (result.status === 'delivered') logger.debug(log, 'delivered');
    else if (result.status === 'dead') logger.warn(log, 'delivery dead after its last attempt');
    else logger.info({ ...log, retryInMs: result.delayMs }, 'delivery failed; will retry');
  }
}
