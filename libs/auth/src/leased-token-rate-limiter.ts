import type { RateLimitDecision, TokenRateLimiter } from './token-rate-limiter';

/** The shared budget a lease is taken from: several requests' worth in one round trip. */
export interface PointsLimiter {
  readonly limit: number;
  consumePoints(tokenId: string, points: number): Promise<RateLimitDecision>;
}

interface Lease {
  /** Requests taken from the shared budget and not yet served. */
  points: number;
  /** The shared budget left when the lease was taken. */
  sharedRemaining: number;
  /** When the budget's window ends (ms). */
  resetAt: number;
  takenAt: number;
  size: number;
}

/** How long a lease should last at the token's rate: a few round trips' worth of requests. */
const LEASE_TARGET_MS = 250;
const MAX_LEASE = 64;
/** A lease takes at most this share of what is left, so the budget is never leased away early. */
const SHARE_OF_REMAINING = 4;

/**
 * A token's budget spent through leases: a busy token takes several requests' worth from the
 * shared budget (PostgreSQL) in one upsert and serves them from memory, so at hundreds of
 * requests a second the budget costs a round trip every quarter second rather than one per
 * request. A lease is sized from the token's recent rate (one request for a quiet token, so a
 * quiet token's budget is exact) and never takes more than a quarter of what is left: near the
 * end of a budget every request asks the database, and the budget is never exceeded. What a
 * lease holds unspent when its token goes quiet is lost for that window, so a busy token may be
 * refused a few requests early, never late. Requests that arrive while a lease is being taken
 * wait for it instead of each taking their own.
 */
export class LeasedTokenRateLimiter implements TokenRateLimiter {
  private readonly leases = new Map<string, Lease>();
  private readonly taking = new Map<string, Promise<unknown>>();

  constructor(
    private readonly shared: PointsLimiter,
    private readonly clock: () => number = Date.now,
  ) {}

  get limit(): number {
    return this.shared.limit;
  }

  async consume(tokenId: string): Promise<RateLimitDecision> {
    for (;;) {
      const now = this.clock();
      const lease = this.leases.get(tokenId);
      if (lease !== undefined && lease.points > 0 && now < lease.resetAt) {
        lease.points -= 1;
        return this.allowed(lease, now);
      }
      const pending = this.taking.get(tokenId);
      if (pending !== undefined) {
        await pending;
        continue;
      }
      return this.takeLease(tokenId, lease, now);
    }
  }

  private async takeLease(
    tokenId: string,
    previous: Lease | undefined,
    now: number,
  ): Promise<RateLimitDecision> {
    const size = this.leaseSize(previous, now);
    const taking = this.shared.consumePoints(tokenId, size);
    this.taking.set(
      tokenId,
      taking.then(
        () => undefined,
        () => undefined,
      ),
    );
    try {
      const decision = await taking;
      if (!decision.allowed) {
        this.leases.delete(tokenId);
        return decision;
      }
      const lease: Lease = {
        points: size - 1,
        sharedRemaining: decision.remaining,
        resetAt: now + decision.resetSeconds * 1000,
        takenAt: now,
        size,
      };
      this.leases.set(tokenId, lease);
      this.forgetEndedLeases(now);
      return this.allowed(lease, now);
    } finally {
      this.taking.delete(tokenId);
    }
  }

  /** One request for a token seen for the first time or gone quiet; more as it gets busier. */
  private leaseSize(previous: Lease | undefined, now: number): number {
    if (previous === undefined || now >= previous.resetAt) return 1;
    const elapsed = Math.max(1, now - previous.takenAt);
    const wanted = Math.round((previous.size * LEASE_TARGET_MS) / elapsed);
    const cap = Math.floor(previous.sharedRemaining / SHARE_OF_REMAINING);
    return Math.max(1, Math.min(MAX_LEASE, wanted, cap));
  }

  private allowed(lease: Lease, now: number): RateLimitDecision {
    return {
      allowed: true,
      limit: this.limit,
      remaining: lease.sharedRemaining + lease.points,
      resetSeconds: Math.max(1, Math.ceil((lease.resetAt - now) / 1000)),
    };
  }

  /** Leases whose window ended hold nothing: dropped now and then so the map stays small. */
  private forgetEndedLeases(now: number): void {
    if (this.leases.size < 10_000) return;
    for (const [tokenId, lease] of this.leases) {
      if (now >= lease.resetAt) this.leases.delete(tokenId);
    }
  }
}
