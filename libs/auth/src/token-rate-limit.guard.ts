import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import type { ApiPrincipal } from '@vigil/control-plane';
import { bearerTokenOf } from './bearer-token';
import {
  TokenBudget,
  budgetSpentError,
  rateLimitHeadersOf,
  type SpendingAhead,
} from './token-budget';
import type { TokenRateLimiter } from './token-rate-limiter';

export const TOKEN_RATE_LIMITER = Symbol('TOKEN_RATE_LIMITER');

interface LimitedRequest {
  readonly headers: IncomingHttpHeaders;
  user?: ApiPrincipal;
}

/**
 * Spends one request of the authenticated token's budget (ApiTokenGuard runs first), as
 * TokenBudget says: RateLimit-* on every answer, 429 with Retry-After when spent, 503
 * `backend_unavailable` when the budget cannot be counted.
 */
@Injectable()
export class TokenRateLimitGuard implements CanActivate {
  private readonly budget: TokenBudget;
  private readonly ahead = new WeakMap<object, SpendingAhead>();

  constructor(@Inject(TOKEN_RATE_LIMITER) limiter: TokenRateLimiter) {
    this.budget = new TokenBudget(limiter);
  }

  /** See TokenBudget.spendAhead: call before ApiTokenGuard so the two lookups overlap. */
  spendAhead(request: { readonly headers: IncomingHttpHeaders }): void {
    const ahead = this.budget.spendAhead(bearerTokenOf(request.headers.authorization));
    if (ahead !== undefined) this.ahead.set(request, ahead);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<LimitedRequest>();
    const principal = request.user;
    if (!principal) return true;
    const ahead = this.ahead.get(request);
    this.ahead.delete(request);
    const decision = await this.budget.spend(
      principal.tokenId,
      bearerTokenOf(request.headers.authorization),
      ahead,
    );
    const response = http.getResponse<Response>();
    for (const [name, value] of Object.entries(rateLimitHeadersOf(decision))) {
      response.setHeader(name, value);
    }
    if (decision.allowed) return true;
    throw budgetSpentError(decision);
  }
}
