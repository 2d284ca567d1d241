import { CountingLimiter } from './testing/counting-limiter';
import { TokenBudget, rateLimitHeadersOf } from './token-budget';

describe('TokenBudget', () => {
  it('spends nothing ahead for a token it has not seen authenticate', () => {
    const limiter = new CountingLimiter(3);
    const budget = new TokenBudget(limiter);
    budget.spendAhead('vgk1-forged');
    expect(limiter.consumed).toEqual([]);
  });

  it('starts spending for a token that passed before, ahead of its lookup, and counts it once', async () => {
    const limiter = new CountingLimiter(3);
    const budget = new TokenBudget(limiter);
    await budget.spend('token-a', 'vgk1-a', budget.spendAhead('vgk1-a'));

    const ahead = budget.spendAhead('vgk1-a');
    expect(limiter.consumed).toEqual(['token-a', 'token-a']);
    const decision = await budget.spend('token-a', 'vgk1-a', ahead);
    expect(decision.allowed).toBe(true);
    expect(limiter.consumed).toHaveLength(2);
    expect(rateLimitHeadersOf(decision)['RateLimit-Remaining']).toBe('1');
  });

  it('spends from the authenticated id when it is not the one it spent ahead for', async () => {
    const limiter = new CountingLimiter(3);
    const budget = new TokenBudget(limiter);
    await budget.spend('token-a', 'vgk1-a', budget.spendAhead('vgk1-a'));
    const ahead = budget.spendAhead('vgk1-a');
    await budget.spend('token-b', 'vgk1-a', ahead);
    expect(limiter.consumed).toEqual(['token-a', 'token-a', 'token-b']);
  });
});
