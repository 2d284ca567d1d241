import fc from 'fast-check';
import {
  DEFAULT_SIGN_IN_THROTTLE,
  decideSignInAttempt,
  delayAfterFailures,
  waitsAfterFailure,
  type SignInThrottleState,
  type ThrottleKeyState,
} from './sign-in-throttle-policy';

const NOW = new Date('2026-03-01T12:00:00Z');
const CLEAN: ThrottleKeyState = { failures: 0, waitUntil: null };
const inSeconds = (s: number) => new Date(NOW.getTime() + s * 1000);
const state = (partial: Partial<SignInThrottleState>): SignInThrottleState => ({
  address: CLEAN,
  account: CLEAN,
  accountAddress: CLEAN,
  ...partial,
});

describe('delayAfterFailures', () => {
  const rule = { free: 5, baseSeconds: 1, capSeconds: 900 };

  it('costs nothing within the free failures, then doubles up to the cap', () => {
    expect([0, 4, 5, 6, 7, 8, 14, 15, 100, 10_000].map((k) => delayAfterFailures(rule, k))).toEqual(
      [0, 0, 1, 2, 4, 8, 512, 900, 900, 900],
    );
  });

  it('never shrinks as failures grow, and never passes the cap', () => {
    fc.assert(
      fc.property(fc.nat(100_000), fc.nat(100_000), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(delayAfterFailures(rule, low)).toBeLessThanOrEqual(delayAfterFailures(rule, high));
        expect(delayAfterFailures(rule, high)).toBeLessThanOrEqual(rule.capSeconds);
      }),
    );
  });
});

describe('decideSignInAttempt', () => {
  it('lets a clean attempt through', () => {
    expect(decideSignInAttempt(state({}), NOW)).toEqual({ allowed: true });
  });

  it('holds back an address that must wait, whatever the account, with the seconds left', () => {
    expect(
      decideSignInAttempt(state({ address: { failures: 30, waitUntil: inSeconds(63.2) } }), NOW),
    ).toEqual({ allowed: false, limit: 'address', retryAfterSeconds: 64 });
  });

  it('lets an attempt through once the wait is over', () => {
    expect(
      decideSignInAttempt(state({ address: { failures: 30, waitUntil: inSeconds(-1) } }), NOW),
    ).toEqual({ allowed: true });
  });

  it('holds back the account at an address that failed for it', () => {
    expect(
      decideSignInAttempt(state({ accountAddress: { failures: 6, waitUntil: inSeconds(2) } }), NOW),
    ).toEqual({ allowed: false, limit: 'account_address', retryAfterSeconds: 2 });
  });

  it('lets the owner in from an address with no failures for the account, however attacked it is', () => {
    const attacked = state({ account: { failures: 5_000, waitUntil: inSeconds(900) } });
    expect(decideSignInAttempt(attacked, NOW)).toEqual({ allowed: true });
  });

  it('holds back an address that failed for an attacked account, with the account’s wait', () => {
    expect(
      decideSignInAttempt(
        state({
          account: { failures: 40, waitUntil: inSeconds(300) },
          accountAddress: { failures: 1, waitUntil: null },
        }),
        NOW,
      ),
    ).toEqual({ allowed: false, limit: 'account', retryAfterSeconds: 300 });
  });

  it('reports the longest of several waits', () => {
    expect(
      decideSignInAttempt(
        state({
          address: { failures: 25, waitUntil: inSeconds(30) },
          accountAddress: { failures: 9, waitUntil: inSeconds(16) },
        }),
        NOW,
      ),
    ).toMatchObject({ limit: 'address', retryAfterSeconds: 30 });
  });

  it('never holds back an address with no failures of its own, by the account’s key alone', () => {
    const key = fc.record({
      failures: fc.nat(10_000),
      waitUntil: fc.option(fc.integer({ min: -1000, max: 1000 }).map(inSeconds)),
    });
    fc.assert(
      fc.property(key, (account) => {
        expect(decideSignInAttempt(state({ account }), NOW)).toEqual({ allowed: true });
      }),
    );
  });
});

describe('waitsAfterFailure', () => {
  it('starts no wait within the free failures', () => {
    expect(
      waitsAfterFailure(DEFAULT_SIGN_IN_THROTTLE, { address: 1, account: 1, accountAddress: 1 }),
    ).toEqual([]);
  });

  it('starts the wait of every key past its free failures', () => {
    expect(
      waitsAfterFailure(DEFAULT_SIGN_IN_THROTTLE, { address: 22, account: 3, accountAddress: 7 }),
    ).toEqual([
      { limit: 'address', seconds: 4 },
      { limit: 'account_address', seconds: 60 },
    ]);
  });
});
