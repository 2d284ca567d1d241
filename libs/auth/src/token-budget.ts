import { isUnavailableError } from '@vigil/control-plane';
import { ApiError } from '@vigil/http';
import { AuthError } from './auth-error';
import { RecentTokenIds } from './recent-token-ids';
import type { RateLimitDecision, TokenRateLimiter } from './token-rate-limiter';

/** A spending started before the token was looked up, for the id it last authenticated as. */
export interface SpendingAhead {
  readonly tokenId: string;
  readonly decision: Promise<RateLimitDecision>;
}

/**
 * Spends one request of an authenticated token's budget. Every answer says where the budget
 * stands (rateLimitHeadersOf); a spent budget is 429 with Retry-After (budgetSpentError). When the
 * budget cannot be counted (the database is down) `spend` throws AuthError
 * `backend_unavailable`, as when the token itself cannot be checked.
 */
export class TokenBudget {
  private readonly recent = new RecentTokenIds();

  constructor(private readonly limiter: TokenRateLimiter) {}

  /**
   * Starts spending from the budget of a token that passed recently, before its lookup, so the
   * two round trips to the database overlap; `spend` then takes that decision if the token
   * authenticates as the same id. A token never authenticated here spends nothing ahead: a
   * forged or unknown token costs no budget and no write. A token deleted since spends one
   * request of its own, now unusable, budget.
   */
  spendAhead(token: string | undefined): SpendingAhead | undefined {
    const tokenId = token === undefined ? undefined : this.recent.get(token);
    if (tokenId === undefined) return undefined;
    const decision = this.limiter.consume(tokenId);
    // Awaited by spend, or dropped when the request is refused before it.
    decision.catch(() => undefined);
    return { tokenId, decision };
  }

  async spend(
    tokenId: string,
    token: string | undefined,
    ahead: SpendingAhead | undefined,
  ): Promise<RateLimitDecision> {
    let decision: RateLimitDecision;
    try {
      decision =
        ahead?.tokenId === tokenId ? await ahead.decision : await this.limiter.consume(tokenId);
    } catch (error) {
      if (isUnavailableError(error)) throw AuthError.backendUnavailable(error);
      throw error;
    }
    if (token !== undefined) this.recent.remember(token, tokenId);
    return decision;
  }
}

/** The RateLimit-* headers of every answer to an authenticated request. */
export function rateLimitHeadersOf(decision: RateLimitDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  };
}

/** The 429 of a spent budget. */
export function budgetSpentError(
  decision: Extract<RateLimitDecision, { allowed: false }>,
): ApiError {
  return new ApiError(
    429,
    'rate_limited',
    `This token may make ${decision.limit} requests a minute; retry in ${decision.retryAfterSeconds} s`,
    { limit: decision.limit, retry_after_seconds: decision.retryAfterSeconds },
    { 'Retry-After': String(decision.retryAfterSeconds) },
  );
}
