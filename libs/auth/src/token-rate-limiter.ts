import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface TokenRateLimiterOptions {
  /** Requests each token may make per rolling minute window (API_RATE_LIMIT_PER_MINUTE). */
  readonly pointsPerMinute: number;
}

export type RateLimitDecision =
  | {
      readonly allowed: true;
      readonly limit: number;
      readonly remaining: number;
      readonly resetSeconds: number;
    }
  | {
      readonly allowed: false;
      readonly limit: number;
      readonly remaining: 0;
      readonly resetSeconds: number;
      /** For the Retry-After header of the 429: whole seconds, at least 1. */
      readonly retryAfterSeconds: number;
    };

/**
 * A per-token request budget, in memory (per API process). The API calls `consume(tokenId)` after
 * authentication and answers 429 with Retry-After when it is not allowed.
 */
export class TokenRateLimiter {
  private readonly limiter: RateLimiterMemory;
  readonly limit: number;

  constructor(options: TokenRateLimiterOptions) {
    if (!Number.isInteger(options.pointsPerMinute) || options.pointsPerMinute < 1) {
      throw new RangeError('pointsPerMinute must be a positive integer');
    }
    this.limit = options.pointsPerMinute;
    this.limiter = new RateLimiterMemory({
      keyPrefix: 'api-token',
      points: options.pointsPerMinute,
      duration: 60,
    });
  }

  async consume(tokenId: string): Promise<RateLimitDecision> {
    try {
      const res = await this.limiter.consume(tokenId);
      return {
        allowed: true,
        limit: this.limit,
        remaining: res.remainingPoints,
        resetSeconds: Math.ceil(res.msBeforeNext / 1000),
      };
    } catch (rejection) {
      // rate-limiter-flexible rejects with a RateLimiterRes when the budget is spent.
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      return {
        allowed: false,
        limit: this.limit,
        remaining: 0,
        resetSeconds: seconds,
        retryAfterSeconds: seconds,
      };
    }
  }
}

export function createTokenRateLimiter(options: TokenRateLimiterOptions): TokenRateLimiter {
  return new TokenRateLimiter(options);
}
