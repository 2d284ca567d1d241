/**
 * Sign-in throttling, decided without I/O (the clock is passed in).
 *
 * Only failed sign-ins count, under three keys: the address (any account: password spraying),
 * the account (any address: guessing spread over many addresses) and the account at one
 * address. Each key has a number of free failures; after that, each further failure makes the
 * next attempt wait longer: after k failures, min(base × 2^(k − free), cap) seconds. Nothing is
 * locked for good, and failures are forgotten `memorySeconds` after a key's first one.
 *
 * The account key never stops the owner: it holds back only addresses that already failed for
 * that account, so a correct password from an address with no failures for the account is
 * checked and accepted at once, however many failures other addresses caused. An address that
 * sprays many accounts is held back by its own key, which no other address shares (behind a
 * reverse proxy, TRUST_PROXY must say so, or every client shares the proxy's address).
 */

/** Which key held an attempt back. */
export type SignInLimit = 'address' | 'account' | 'account_address';

export interface ThrottleRule {
  /** Failures that cost nothing. */
  readonly free: number;
  /** The wait after the first failure beyond the free ones; it doubles with each further one. */
  readonly baseSeconds: number;
  readonly capSeconds: number;
}

export interface SignInThrottlePolicy {
  readonly address: ThrottleRule;
  readonly account: ThrottleRule;
  readonly accountAddress: ThrottleRule;
  /** How long a key's failures are remembered, from its first one. */
  readonly memorySeconds: number;
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottlePolicy = {
  address: { free: 20, baseSeconds: 1, capSeconds: 15 * 60 },
  account: { free: 20, baseSeconds: 1, capSeconds: 15 * 60 },
  // A person mistyping their own password waits 15 s after the fifth failure, then 30 s, 1 min…
  accountAddress: { free: 5, baseSeconds: 15, capSeconds: 15 * 60 },
  memorySeconds: 60 * 60,
};

/** What is known about one key: its failures and, when it must wait, until when. */
export interface ThrottleKeyState {
  readonly failures: number;
  readonly waitUntil: Date | null;
}

export interface SignInThrottleState {
  readonly address: ThrottleKeyState;
  readonly account: ThrottleKeyState;
  readonly accountAddress: ThrottleKeyState;
}

export type ThrottleDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly limit: SignInLimit; readonly retryAfterSeconds: number };

/** The wait, in whole seconds, that `failures` failures under `rule` impose on the next attempt. */
export function delayAfterFailures(rule: ThrottleRule, failures: number): number {
  if (failures < rule.free) return 0;
  // Past 2^30 the cap has long been reached; stop before the arithmetic loses meaning.
  const doublings = Math.min(failures - rule.free, 30);
  return Math.min(rule.baseSeconds * 2 ** doublings, rule.capSeconds);
}

/**
 * Whether an attempt may check its password now. Held back when the address must wait, when
 * the account must wait at this address, or when the account must wait and this address has
 * already failed for it; the longest of those waits is the one reported.
 */
export function decideSignInAttempt(state: SignInThrottleState, now: Date): ThrottleDecision {
  const waiting: [SignInLimit, ThrottleKeyState][] = [
    ['address', state.address],
    ['account_address', state.accountAddress],
  ];
  if (state.accountAddress.failures > 0) waiting.push(['account', state.account]);
  let longest: { limit: SignInLimit; ms: number } | null = null;
  for (const [limit, key] of waiting) {
    const ms = key.waitUntil === null ? 0 : key.waitUntil.getTime() - now.getTime();
    if (ms > 0 && (longest === null || ms > longest.ms)) longest = { limit, ms };
  }
  if (longest === null) return { allowed: true };
  return {
    allowed: false,
    limit: longest.limit,
    retryAfterSeconds: Math.max(1, Math.ceil(longest.ms / 1000)),
  };
}

/** The waits a failure starts: each key's new wait, from its failures counting this one. */
export function waitsAfterFailure(
  policy: SignInThrottlePolicy,
  failures: { readonly address: number; readonly account: number; readonly accountAddress: number },
): { readonly limit: SignInLimit; readonly seconds: number }[] {
  const waits: { limit: SignInLimit; seconds: number }[] = [
    { limit: 'address', seconds: delayAfterFailures(policy.address, failures.address) },
    { limit: 'account', seconds: delayAfterFailures(policy.account, failures.account) },
    {
      limit: 'account_address',
      seconds: delayAfterFailures(policy.accountAddress, failures.accountAddress),
    },
  ];
  return waits.filter((w) => w.seconds > 0);
}
