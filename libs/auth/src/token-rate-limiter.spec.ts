import { createTokenRateLimiter } from './create-token-rate-limiter';

describe('TokenRateLimiter', () => {
  it('allows the configured requests per minute, then refuses with a Retry-After', async () => {
    const limiter = createTokenRateLimiter({ pointsPerMinute: 3 });
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.consume('token-a'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions[0]).toMatchObject({ limit: 3, remaining: 2 });
    const refused = decisions[3];
    if (refused.allowed) throw new Error('expected a refusal');
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(refused.remaining).toBe(0);
  });

  it('keeps a separate budget per token', async () => {
    const limiter = createTokenRateLimiter({ pointsPerMinute: 1 });
    expect((await limiter.consume('a')).allowed).toBe(true);
    expect((await limiter.consume('a')).allowed).toBe(false);
    expect((await limiter.consume('b')).allowed).toBe(true);
  });

  it('refuses a budget that is not a positive integer', () => {
    expect(() => createTokenRateLimiter({ pointsPerMinute: 0 })).toThrow(RangeError);
    expect(() => createTokenRateLimiter({ pointsPerMinute: 1.5 })).toThrow(RangeError);
  });
});
