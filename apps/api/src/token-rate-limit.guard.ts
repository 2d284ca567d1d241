import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import type { TokenRateLimiter } from '@vigil/auth';
import type { ApiPrincipal } from '@vigil/control-plane';
import { ApiError } from '@vigil/http';

export const TOKEN_RATE_LIMITER = Symbol('TOKEN_RATE_LIMITER');

/**
 * Spends one request of the authenticated token's budget (ApiTokenGuard runs first). Every
 * answer says where the budget stands (RateLimit-*); a spent budget is 429 with Retry-After.
 */
@Injectable()
export class TokenRateLimitGuard implements CanActivate {
  constructor(@Inject(TOKEN_RATE_LIMITER) private readonly limiter: TokenRateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const principal = http.getRequest<{ user?: ApiPrincipal }>().user;
    if (!principal) return true;
    const decision = await this.limiter.consume(principal.tokenId);
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
