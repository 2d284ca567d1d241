import { FlexibleTokenRateLimiter } from './flexible-token-rate-limiter';
import { LeasedTokenRateLimiter } from './leased-token-rate-limiter';
import { type TokenRateLimiter, type TokenRateLimiterOptions } from './token-rate-limiter';

/**
 * A per-token budget counted in `options.store` (PostgreSQL), spent through leases so a busy
 * token does not cost an upsert per request; or in memory without a store.
 */
export function createTokenRateLimiter(options: TokenRateLimiterOptions): TokenRateLimiter {
  const counted = new FlexibleTokenRateLimiter(options);
  return options.store?.kind === 'postgres' ? new LeasedTokenRateLimiter(counted) : counted;
}
