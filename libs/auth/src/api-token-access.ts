import type { IncomingHttpHeaders } from 'node:http';
import type { ApiPrincipal } from '@vigil/control-plane';
import { AuthError } from './auth-error';
import { authenticateBearerToken } from './authenticate-bearer-token';
import { bearerTokenOf, presentedBearerToken } from './bearer-token';
import { checkScope, type RequiredScope } from './require-scope';
import { TokenBudget, budgetSpentError, rateLimitHeadersOf } from './token-budget';
import type { TokenAuthenticator } from './token-authenticator';
import type { TokenRateLimiter } from './token-rate-limiter';

/** Where the checks report to the request being answered. */
export interface AccessAnswer {
  setHeader(name: string, value: string): void;
  /** The token authenticated (the checks after it may still refuse): for the request log. */
  authenticated(principal: ApiPrincipal): void;
}

export interface AccessRequest {
  readonly headers: IncomingHttpHeaders;
  readonly rawHeaders: readonly string[];
  /** The parsed query string and body: a token there refuses the request, as passport would. */
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

/**
 * What an API-token endpoint requires, in order, without a framework: one `Authorization:
 * Bearer` token that authenticates, budget left for it (RateLimit-* headers on every answer past
 * authentication), and the required scope. The same checks, in the same order and with the same
 * refusals, as ApiTokenGuard, TokenRateLimitGuard and ScopeGuard in a Nest pipeline.
 */
export class ApiTokenAccess {
  private readonly budget: TokenBudget;

  constructor(
    private readonly authenticator: TokenAuthenticator,
    limiter: TokenRateLimiter,
    private readonly required: RequiredScope,
  ) {
    this.budget = new TokenBudget(limiter);
  }

  /** The principal; throws the refusal (AuthError 401/403/503, ApiError 429). */
  async authorize(request: AccessRequest, answer: AccessAnswer): Promise<ApiPrincipal> {
    const ahead = this.budget.spendAhead(bearerTokenOf(request.headers.authorization));
    const token = presentedBearerToken(request);
    if (hasAccessToken(request.query) || hasAccessToken(request.body)) {
      throw AuthError.missingToken();
    }
    const principal = await authenticateBearerToken(this.authenticator, token);
    answer.authenticated(principal);
    const decision = await this.budget.spend(principal.tokenId, token, ahead);
    for (const [name, value] of Object.entries(rateLimitHeadersOf(decision))) {
      answer.setHeader(name, value);
    }
    if (!decision.allowed) throw budgetSpentError(decision);
    checkScope(principal, this.required);
    return principal;
  }
}

function hasAccessToken(carrier: unknown): boolean {
  return typeof carrier === 'object' && carrier !== null && 'access_token' in carrier;
}
