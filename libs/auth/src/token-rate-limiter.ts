import { type RateLimitStore } from './rate-limit-store';

export interface TokenRateLimiterOptions {
  /** Requests each token may make per one-minute window (API_RATE_LIMIT_PER_MINUTE, …). */
  readonly pointsPerMinute: number;
  /** Budgets of limiters with different names never mix (`api`, `ingest`). */
  readonly name?: string;
  /** Where budgets are counted; this process's memory when absent (one instance only). */
  readonly store?: RateLimitStore;
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
 * A request budget per token and minute. The API and ingest call `consume(tokenId)` after
 * authentication and answer 429 with Retry-After when it is not allowed. With a PostgreSQL
 * store every instance spends from the same budget; `consume` then rejects with
 * SqlUnavailableError when the database cannot be reached (the caller fails closed).
 */
export interface TokenRateLimiter {
  readonly limit: number;
  consume(tokenId: string): Promise<RateLimitDecision>;
}
