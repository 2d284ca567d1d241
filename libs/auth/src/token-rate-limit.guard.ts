import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import { isUnavailableError, type ApiPrincipal } from '@vigil/control-plane';
import { ApiError } from '@vigil/http';
import { bearerTokenOf } from './api-token.guard';
import { AuthError } from './auth-error';
import { RecentTokenIds } from './recent-token-ids';
import type { RateLimitDecision, TokenRateLimiter } from './token-rate-limiter';

export const TOKEN_RATE_LIMITER = Symbol('TOKEN_RATE_LIMITER');

interface LimitedRequest {
  readonly headers: IncomingHttpHeaders;
  user?: ApiPrincipal;
}

interface SpendingAhead {
  readonly tokenId: string;
  readonly decision: Promise<RateLimitDecision>;
}

/**
 * Spends one request of the authenticated token's budget (ApiTokenGuard runs first). Every
 * answer says where the budget stands (RateLimit-*); a spent budget is 429 with Retry-After.
 * When the budget cannot be counted (the database is down) the request is refused with 503
 * `backend_unavailable`, as when the token itself cannot be checked.
 */
@Injectable()
export class TokenRateLimitGuard implements CanActivate {
  private readonly recent = new RecentTokenIds();
  private readonly ahead = new WeakMap<object, SpendingAhead>();

  constructor(@Inject(TOKEN_RATE_LIMITER) private readonly limiter: TokenRateLimiter) {}

  /**
   * Starts spending from the budget of a token that passed recently, before ApiTokenGuard has
   * looked it up, so the two round trips to the database overlap; canActivate then takes that
   * decision if the token authenticates as the same id. A token never authenticated here spends
   * nothing ahead: a forged or unknown token costs no budget and no write. A token deleted since
   * spends one request of its own, now unusable, budget.
   */
  spendAhead(request: { readonly headers: IncomingHttpHeaders }): void {
    const token = bearerTokenOf(request.headers.authorization);
    const tokenId = token === undefined ? undefined : this.recent.get(token);
    if (tokenId === undefined) return;
    const decision = this.limiter.consume(tokenId);
    // Awaited by canActivate, or dropped when the request is refused before it.
    decision.catch(() => undefined);
    this.ahead.set(request, { tokenId, decision });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<LimitedRequest>();
    const principal = request.user;
    if (!principal) return true;
    const ahead = this.ahead.get(request);
    this.ahead.delete(request);
    let decision: RateLimitDecision;
    try {
      decision =
        ahead?.tokenId === principal.tokenId
          ? await ahead.decision
          : await this.limiter.consume(principal.tokenId);
    } catch (error) {
      if (isUnavailableError(error)) throw AuthError.backendUnavailable(error);
      throw error;
    }
    const token = bearerTokenOf(request.headers.authorization);
    if (token !== undefined) this.recent.remember(token, principal.tokenId);
    const response = http.getResponse<Response>();
    response.setHeader('RateLimit-Limit', String(decision.limit));
    response.setHeader('RateLimit-Remaining', String(decision.remaining));
    response.setHeader('RateLimit-Reset', String(decision.resetSeconds));
    if (decision.allowed) return true;
    throw new ApiError(
      429,
      'rate_limited',
      `This token may make ${decision.limit} requests a minute; retry in ${decision.retryAfterSeconds} s`,
      { limit: decision.limit, retry_after_seconds: decision.retryAfterSeconds },
      { 'Retry-After': String(decision.retryAfterSeconds) },
    );
  }
}
