import type { RateLimitDecision, TokenRateLimiter } from '../token-rate-limiter';

/** A limiter that records which token ids it was asked about, with a budget of `limit`. */
export class CountingLimiter implements TokenRateLimiter {
  readonly consumed: string[] = [];
  failure: Error | null = null;
  constructor(readonly limit: number) {}

  async consume(tokenId: string): Promise<RateLimitDecision> {
    if (this.failure) throw this.failure;
    this.consumed.push(tokenId);
    const spent = this.consumed.filter((id) => id === tokenId).length;
    return spent <= this.limit
      ? { allowed: true, limit: this.limit, remaining: this.limit - spent, resetSeconds: 60 }
      : {
          allowed: false,
          limit: this.limit,
          remaining: 0,
          resetSeconds: 30,
          retryAfterSeconds: 30,
        };
  }
}
