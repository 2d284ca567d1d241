import { createHash } from 'node:crypto';
import { type RateLimiterAbstract, type RateLimiterRes } from 'rate-limiter-flexible';
import { createFlexibleLimiter, type RateLimitStore } from '../rate-limit-store';
import {
  DEFAULT_SIGN_IN_THROTTLE,
  decideSignInAttempt,
  waitsAfterFailure,
  type SignInLimit,
  type SignInThrottlePolicy,
  type ThrottleDecision,
  type ThrottleKeyState,
} from './sign-in-throttle-policy';

/** The waits one failure started (empty while within the free failures). */
export interface FailureRecorded {
  readonly waits: readonly { readonly limit: SignInLimit; readonly seconds: number }[];
}

interface Keys {
  readonly address: string;
  readonly account: string;
  readonly accountAddress: string;
}

const NEVER_SPENT = 1_000_000_000;

/**
 * The sign-in throttle of sign-in-throttle-policy.ts, kept in the shared rate-limit store
 * (PostgreSQL's `rate_limits` table, so every instance counts the same failures; memory in the
 * embedded mode). Per key, one row counts failures and, once waits begin, another row expires
 * when the wait ends. Emails are keyed by a hash: the table never holds what was typed.
 */
export class SignInThrottle {
  private readonly failures: RateLimiterAbstract;
  private readonly waits: RateLimiterAbstract;

  constructor(
    store: RateLimitStore,
    private readonly policy: SignInThrottlePolicy = DEFAULT_SIGN_IN_THROTTLE,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.failures = createFlexibleLimiter(store, {
      keyPrefix: 'sign-in-failures',
      points: NEVER_SPENT,
      durationSeconds: policy.memorySeconds,
    });
    this.waits = createFlexibleLimiter(store, {
      keyPrefix: 'sign-in-wait',
      points: 1,
      durationSeconds: policy.address.capSeconds,
    });
  }

  /** Whether an attempt for `email` from `address` may check its password now. */
  async check(email: string, address: string): Promise<ThrottleDecision> {
    const keys = keysOf(email, address);
    const now = this.clock();
    const [addressWait, accountWait, accountAddressWait, accountAddressFailures] =
      await Promise.all([
        this.waits.get(keys.address),
        this.waits.get(keys.account),
        this.waits.get(keys.accountAddress),
        this.failures.get(keys.accountAddress),
      ]);
    const state = (wait: RateLimiterRes | null, failures = 0): ThrottleKeyState => ({
      failures,
      waitUntil: wait === null ? null : new Date(now.getTime() + wait.msBeforeNext),
    });
    return decideSignInAttempt(
      {
        address: state(addressWait),
        account: state(accountWait),
        accountAddress: state(accountAddressWait, accountAddressFailures?.consumedPoints ?? 0),
      },
      now,
    );
  }

  /** Counts a failure under every key and starts the waits it earns. */
  async recordFailure(email: string, address: string): Promise<FailureRecorded> {
    const keys = keysOf(email, address);
    const [onAddress, onAccount, onAccountAddress] = await Promise.all([
      this.failures.penalty(keys.address),
      this.failures.penalty(keys.account),
      this.failures.penalty(keys.accountAddress),
    ]);
    const waits = waitsAfterFailure(this.policy, {
      address: onAddress.consumedPoints,
      account: onAccount.consumedPoints,
      accountAddress: onAccountAddress.consumedPoints,
    });
    await Promise.all(waits.map((w) => this.waits.block(keys[keyOf(w.limit)], w.seconds)));
    return { waits };
  }

  /**
   * Forgets the account's failures at this address. The address's and the account's own counts
   * stay: signing in to one's own account must not reset a spray or an attack on the account.
   */
  async recordSuccess(email: string, address: string): Promise<void> {
    const keys = keysOf(email, address);
    await Promise.all([
      this.failures.delete(keys.accountAddress),
      this.waits.delete(keys.accountAddress),
    ]);
  }
}

function keyOf(limit: SignInLimit): keyof Keys {
  return limit === 'account_address' ? 'accountAddress' : limit;
}

function keysOf(email: string, address: string): Keys {
  const account = createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
  return {
    address: `a:${address}`,
    account: `u:${account}`,
    accountAddress: `ua:${account}:${address}`,
  };
}
