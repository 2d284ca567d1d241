import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { SqlUnavailableError, isUnavailableError } from '@vigil/control-plane';
import { createFlexibleLimiter } from './rate-limit-store';
import type {
  RateLimitDecision,
  TokenRateLimiter,
  TokenRateLimiterOptions,
} from './token-rate-limiter';

const WINDOW_SECONDS = 60;

/**
 * TokenRateLimiter on rate-limiter-flexible: a fixed one-minute window per token, counted in
 * PostgreSQL (one upsert per request, no DDL: the table comes from the migrations) or in memory.
 * On PostgreSQL, a token that spent its budget is refused from memory until its window ends,
 * so a flood from one token costs the database nothing. No in-memory insurance: a limiter that
 * silently counted per process while the database is away would multiply the budget by the
 * number of instances, so an outage is reported (SqlUnavailableError) instead.
 */
export class FlexibleTokenRateLimiter implements TokenRateLimiter {
  private readonly limiter: RateLimiterAbstract;
  readonly limit: number;

  constructor(options: TokenRateLimiterOptions) {
    if (!Number.isInteger(options.pointsPerMinute) || options.pointsPerMinute < 1) {
      throw new RangeError('pointsPerMinute must be a positive integer');
    }
    this.limit = options.pointsPerMinute;
    this.limiter = createFlexibleLimiter(options.store ?? { kind: 'memory' }, {
      keyPrefix: options.name ?? 'api-token',
      points: options.pointsPerMinute,
      durationSeconds: WINDOW_SECONDS,
      inMemoryBlockOnConsumed: options.pointsPerMinute + 1,
    });
  }

  consume(tokenId: string): Promise<RateLimitDecision> {
    return this.consumePoints(tokenId, 1);
  }

  /**
   * Spends `points` requests of the token's budget at once (LeasedTokenRateLimiter's lease);
   * allowed only when all of them fit.
   */
  async consumePoints(tokenId: string, points: number): Promise<RateLimitDecision> {
    try {
      const res = await this.limiter.consume(tokenId, points);
      return {
        allowed: true,
        limit: this.limit,
        remaining: res.remainingPoints,
        resetSeconds: Math.ceil(res.msBeforeNext / 1000),
      };
    } catch (rejection) {
      // rate-limiter-flexible rejects with a RateLimiterRes when the budget is spent, and with
      // the store's error when it could not count.
      if (!(rejection instanceof RateLimiterRes)) {
        throw isUnavailableError(rejection) ? new SqlUnavailableError(rejection) : rejection;
      }
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
