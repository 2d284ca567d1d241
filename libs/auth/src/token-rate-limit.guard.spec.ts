import type { ExecutionContext } from '@nestjs/common';
import { SqlUnavailableError, type ApiPrincipal } from '@vigil/control-plane';
import { ApiError } from '@vigil/http';
import { AuthError } from './auth-error';
import { TokenRateLimitGuard } from './token-rate-limit.guard';
import { CountingLimiter } from './testing/counting-limiter';

function aRequest(token: string) {
  const headers: Record<string, string> = {};
  const request: { headers: { authorization: string }; user?: ApiPrincipal } = {
    headers: { authorization: `Bearer ${token}` },
  };
  const context = {
    switchToHttp: () => ({
      getRequest: () => request,
      getResponse: () => ({ setHeader: (name: string, value: string) => (headers[name] = value) }),
    }),
  } as unknown as ExecutionContext;
  const authenticateAs = (tokenId: string) => {
    request.user = { tokenId, name: 'script', permissions: {} as ApiPrincipal['permissions'] };
  };
  return { request, context, headers, authenticateAs };
}

describe('TokenRateLimitGuard', () => {
  it('spends one request of the authenticated token and says where its budget stands', async () => {
    const limiter = new CountingLimiter(3);
    const guard = new TokenRateLimitGuard(limiter);
    const { context, headers, authenticateAs } = aRequest('vgk1-a');
    authenticateAs('token-a');
    expect(await guard.canActivate(context)).toBe(true);
    expect(limiter.consumed).toEqual(['token-a']);
    expect(headers).toEqual({
      'RateLimit-Limit': '3',
      'RateLimit-Remaining': '2',
      'RateLimit-Reset': '60',
    });
  });

  it('refuses a spent budget with 429 rate_limited and Retry-After', async () => {
    const guard = new TokenRateLimitGuard(new CountingLimiter(1));
    const first = aRequest('vgk1-a');
    first.authenticateAs('token-a');
    await guard.canActivate(first.context);
    const second = aRequest('vgk1-a');
    second.authenticateAs('token-a');
    const refusal = (await guard.canActivate(second.context).catch((e: unknown) => e)) as ApiError;
    expect(refusal).toBeInstanceOf(ApiError);
    expect([refusal.status, refusal.code, refusal.headers]).toEqual([
      429,
      'rate_limited',
      { 'Retry-After': '30' },
    ]);
    expect(second.headers['RateLimit-Remaining']).toBe('0');
  });

  it('refuses with 503 backend_unavailable when the budget cannot be counted', async () => {
    const limiter = new CountingLimiter(3);
    limiter.failure = new SqlUnavailableError(new Error('connect ECONNREFUSED'));
    const guard = new TokenRateLimitGuard(limiter);
    const { context, authenticateAs } = aRequest('vgk1-a');
    authenticateAs('token-a');
    const refusal = (await guard.canActivate(context).catch((e: unknown) => e)) as AuthError;
    expect(refusal).toBeInstanceOf(AuthError);
    expect([refusal.httpStatus, refusal.code]).toEqual([503, 'backend_unavailable']);
  });
});
