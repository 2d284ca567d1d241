import fc from 'fast-check';
import { LeasedTokenRateLimiter, type PointsLimiter } from './leased-token-rate-limiter';
import type { RateLimitDecision } from './token-rate-limiter';

/** A shared budget in memory, as several instances see it: counts every lease taken. */
class SharedBudget implements PointsLimiter {
  consumed = new Map<string, number>();
  calls = 0;
  constructor(
    readonly limit: number,
    private readonly delayMs = 0,
  ) {}

  async consumePoints(tokenId: string, points: number): Promise<RateLimitDecision> {
    this.calls += 1;
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const spent = (this.consumed.get(tokenId) ?? 0) + points;
    this.consumed.set(tokenId, spent);
    if (spent > this.limit) {
      return {
        allowed: false,
        limit: this.limit,
        remaining: 0,
        resetSeconds: 60,
        retryAfterSeconds: 60,
      };
    }
    return { allowed: true, limit: this.limit, remaining: this.limit - spent, resetSeconds: 60 };
  }
}

describe('LeasedTokenRateLimiter', () => {
  it('spends a quiet token one request at a time, exactly', async () => {
    let now = 0;
    const shared = new SharedBudget(3);
    const limiter = new LeasedTokenRateLimiter(shared, () => now);
    const decisions = [];
    for (let i = 0; i < 4; i++) {
      decisions.push(await limiter.consume('t'));
      now += 5_000;
    }
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    expect(shared.calls).toBe(4);
  });

  it('serves a busy token from leases: far fewer round trips, the same remaining budget', async () => {
    let now = 0;
    const shared = new SharedBudget(100_000);
    const limiter = new LeasedTokenRateLimiter(shared, () => now);
    let last: RateLimitDecision | undefined;
    for (let i = 0; i < 1_000; i++) {
      last = await limiter.consume('t');
      now += 1;
    }
    expect(last).toMatchObject({ allowed: true, remaining: 100_000 - 1_000 });
    expect(shared.calls).toBeLessThan(100);
  });

  it('lets concurrent requests wait for one lease instead of each taking one', async () => {
    const shared = new SharedBudget(100_000, 2);
    const limiter = new LeasedTokenRateLimiter(shared);
    await limiter.consume('t');
    const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.consume('t')));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(shared.calls).toBeLessThan(20);
  });

  it('starts afresh with a new window', async () => {
    let now = 0;
    const shared = new SharedBudget(1_000);
    const limiter = new LeasedTokenRateLimiter(shared, () => now);
    for (let i = 0; i < 100; i++) await limiter.consume('t');
    now += 61_000;
    shared.consumed.clear();
    const calls = shared.calls;
    await limiter.consume('t');
    expect(shared.calls).toBe(calls + 1);
    expect(shared.consumed.get('t')).toBe(1);
  });

  it('never lets more than the budget through, and loses at most a lease per instance', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 50 })), {
          maxLength: 400,
        }),
        async (budget, requests) => {
          let now = 0;
          const shared = new SharedBudget(budget);
          const instances = [0, 1, 2].map(() => new LeasedTokenRateLimiter(shared, () => now));
          let allowed = 0;
          for (const [instance, gap] of requests) {
            now += gap;
            if ((await instances[instance].consume('t')).allowed) allowed += 1;
          }
          expect(allowed).toBeLessThanOrEqual(budget);
          // Refused early by at most what leases held unspent: a quarter of what was left each.
          if (requests.length >= budget * 2)
            expect(allowed).toBeGreaterThanOrEqual(budget - 3 * Math.ceil(budget / 4));
        },
      ),
      { numRuns: 200 },
    );
  });
});
