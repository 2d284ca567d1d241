import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { ApiPrincipal } from '@vigil/control-plane';
import { TokenBudget, budgetSpentError, rateLimitHeadersOf } from './token-budget';
import type { TokenRateLimiter } from './token-rate-limiter';

export const TOKEN_RATE_LIMITER = Symbol('TOKEN_RATE_LIMITER');

interface LimitedRequest {
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

  constructor(@Inject(TOKEN_RATE_LIMITER) limiter: TokenRateLimiter) {
    this.budget = new TokenBudget(limiter);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<LimitedRequest>();
    const principal = request.user;
    if (!principal) return true;
    // Nothing is spent ahead here (ApiTokenAccess does that), so no token is remembered for it.
    const decision = await this.budget.spend(principal.tokenId, undefined, undefined);
    const response = http.getResponse<Response>();
    for (const [name, value] of Object.entries(rateLimitHeadersOf(decision))) {
      response.setHeader(name, value);
    }
    if (decision.allowed) return true;
    throw budgetSpentError(decision);
  }
}
