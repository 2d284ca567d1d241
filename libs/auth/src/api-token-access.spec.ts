import {
  SqlUnavailableError,
  type ApiPrincipal,
  type AuthenticationResult,
} from '@vigil/control-plane';
import { ApiError } from '@vigil/http';
import { ApiTokenAccess } from './api-token-access';
import { AuthError } from './auth-error';
import type { TokenAuthenticator } from './token-authenticator';
import type { RateLimitDecision, TokenRateLimiter } from './token-rate-limiter';

const reader: ApiPrincipal = {
  tokenId: 'token-r',
  name: 'reader',
  permissions: { detection: 'read' } as ApiPrincipal['permissions'],
};
const writerOfOthers: ApiPrincipal = {
  tokenId: 'token-w',
  name: 'other',
  permissions: {} as ApiPrincipal['permissions'],
};

class Tokens implements TokenAuthenticator {
  down = false;
  readonly looked: string[] = [];
  async authenticate(value: string): Promise<AuthenticationResult> {
    this.looked.push(value);
    if (this.down) throw new SqlUnavailableError(new Error('ECONNREFUSED'));
    if (value === 'vgk-reader') return { ok: true, principal: reader };
    if (value === 'vgk-other') return { ok: true, principal: writerOfOthers };
    if (value === 'vgk-old') return { ok: false, code: 'token_expired' };
    return { ok: false, code: 'invalid_token' };
  }
}

class Budget implements TokenRateLimiter {
  readonly consumed: string[] = [];
  constructor(readonly limit: number) {}
  async consume(tokenId: string): Promise<RateLimitDecision> {
    this.consumed.push(tokenId);
    const spent = this.consumed.filter((id) => id === tokenId).length;
    return spent <= this.limit
      ? { allowed: true, limit: this.limit, remaining: this.limit - spent, resetSeconds: 60 }
      : { allowed: false, limit: this.limit, remaining: 0, resetSeconds: 9, retryAfterSeconds: 9 };
  }
}

function setUp(limit = 10) {
  const tokens = new Tokens();
  const budget = new Budget(limit);
  const access = new ApiTokenAccess(tokens, budget, { scope: 'detection', level: 'read' });
  const headers: Record<string, string> = {};
  const authenticated: string[] = [];
  const answer = {
    setHeader: (name: string, value: string) => (headers[name] = value),
    authenticated: (principal: ApiPrincipal) => authenticated.push(principal.tokenId),
  };
  const request = (authorization?: string, extra: { query?: object; body?: unknown } = {}) => ({
    headers: authorization === undefined ? {} : { authorization },
    rawHeaders: authorization === undefined ? [] : ['Authorization', authorization],
    query: { ...extra.query },
    body: extra.body,
  });
  return { tokens, budget, access, headers, authenticated, answer, request };
}

describe('ApiTokenAccess', () => {
  it('gives the principal of a token with the scope and says where its budget stands', async () => {
    const { access, answer, request, headers, authenticated, budget } = setUp(3);
    await expect(access.authorize(request('Bearer vgk-reader'), answer)).resolves.toBe(reader);
    expect(authenticated).toEqual(['token-r']);
    expect(budget.consumed).toEqual(['token-r']);
    expect(headers).toEqual({
      'RateLimit-Limit': '3',
      'RateLimit-Remaining': '2',
      'RateLimit-Reset': '60',
    });
  });

  it('refuses without one Bearer header, or with a token in the query string or body', async () => {
    const { access, answer, request, tokens, budget } = setUp();
    const refusals = [
      request(),
      request('Basic dXNlcjpwYXNz'),
      request('Bearer'),
      { ...request('Bearer vgk-reader'), rawHeaders: ['authorization', 'a', 'Authorization', 'b'] },
      request('Bearer vgk-reader', { query: { access_token: 'vgk-reader' } }),
      request('Bearer vgk-reader', { body: { access_token: 'vgk-reader' } }),
    ];
    for (const refused of refusals) {
      await expect(access.authorize(refused, answer)).rejects.toMatchObject({
        code: 'missing_token',
        httpStatus: 401,
      });
    }
    expect(tokens.looked).toEqual([]);
    expect(budget.consumed).toEqual([]);
  });

  it('refuses an unknown or expired token before spending any budget', async () => {
    const { access, answer, request, budget } = setUp();
    await expect(access.authorize(request('Bearer vgk-nope'), answer)).rejects.toMatchObject({
      code: 'invalid_token',
    });
    await expect(access.authorize(request('Bearer vgk-old'), answer)).rejects.toMatchObject({
      code: 'token_expired',
    });
    expect(budget.consumed).toEqual([]);
  });

  it('answers 429 with Retry-After once the budget is spent, before looking at the scope', async () => {
    const { access, answer, request, headers } = setUp(1);
    await access.authorize(request('Bearer vgk-reader'), answer);
    const refusal = (await access.authorize(request('Bearer vgk-reader'), answer).then(
      () => undefined,
      (e: unknown) => e,
    )) as ApiError;
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(refusal.headers).toEqual({ 'Retry-After': '9' });
    expect(headers['RateLimit-Remaining']).toBe('0');
  });

  it('refuses a token without the scope with 403 naming it, its budget spent', async () => {
    const { access, answer, request, budget, authenticated } = setUp();
    const refusal = (await access.authorize(request('Bearer vgk-other'), answer).then(
      () => undefined,
      (e: unknown) => e,
    )) as AuthError;
    expect(refusal).toBeInstanceOf(AuthError);
    expect(refusal).toMatchObject({
      code: 'insufficient_scope',
      details: { scope: 'detection', level: 'read' },
    });
    expect(budget.consumed).toEqual(['token-w']);
    expect(authenticated).toEqual(['token-w']);
  });

  it('fails closed with 503 when tokens cannot be checked', async () => {
    const { access, answer, request, tokens } = setUp();
    tokens.down = true;
    await expect(access.authorize(request('Bearer vgk-reader'), answer)).rejects.toMatchObject({
      code: 'backend_unavailable',
      httpStatus: 503,
    });
  });

  it('spends ahead only for a token that authenticated before, and never twice', async () => {
    const { access, answer, request, budget } = setUp();
    await access.authorize(request('Bearer vgk-reader'), answer);
    await access.authorize(request('Bearer vgk-reader'), answer);
    expect(budget.consumed).toEqual(['token-r', 'token-r']);
    await access.authorize(request('Bearer vgk-nope'), answer).catch(() => undefined);
    expect(budget.consumed).toEqual(['token-r', 'token-r']);
  });
});
