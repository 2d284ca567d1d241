import { RecentTokenIds } from './recent-token-ids';

describe('RecentTokenIds', () => {
  it('remembers a token’s id until its time runs out', () => {
    let now = 0;
    const ids = new RecentTokenIds({ ttlMs: 1_000, clock: () => now });
    ids.remember('vgk1-a', 'token-a');
    now = 999;
    expect(ids.get('vgk1-a')).toBe('token-a');
    now = 1_000;
    expect(ids.get('vgk1-a')).toBeUndefined();
    expect(ids.size).toBe(0);
  });

  it('forgets the token seen longest ago when full', () => {
    const ids = new RecentTokenIds({ capacity: 2 });
    ids.remember('vgk1-a', 'a');
    ids.remember('vgk1-b', 'b');
    ids.remember('vgk1-a', 'a');
    ids.remember('vgk1-c', 'c');
    expect([ids.get('vgk1-a'), ids.get('vgk1-b'), ids.get('vgk1-c')]).toEqual([
      'a',
      undefined,
      'c',
    ]);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new RecentTokenIds({ capacity: 0 })).toThrow(RangeError);
  });
});
