import { FlexibleTokenRateLimiter } from './flexible-token-rate-limiter';
import { type TokenRateLimiter, type TokenRateLimiterOptions } from './token-rate-limiter';

/** A per-token budget counted in `options.store` (PostgreSQL), or in memory without one. */
export function createTokenRateLimiter(options: TokenRateLimiterOptions): TokenRateLimiter {
  return new FlexibleTokenRateLimiter(options);
}
