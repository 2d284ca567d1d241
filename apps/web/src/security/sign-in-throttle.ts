import { RateLimiterMemory } from 'rate-limiter-flexible';

export interface SignInThrottleOptions {
  /** Failed attempts allowed per email and address in the window. */
  readonly perAccount?: number;
  /** Failed attempts allowed per address, whatever the email (password spraying). */
  readonly perAddress?: number;
  readonly windowSeconds?: number;
}

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Limits failed sign-ins in memory: per email and address, and per address. Only failures count;
 * a success clears the account's count.
 */
export class SignInThrottle {
  private readonly perAccount: RateLimiterMemory;
  private readonly perAddress: RateLimiterMemory;

  constructor(options: SignInThrottleOptions = {}) {
    const duration = options.windowSeconds ?? 15 * 60;
    this.perAccount = new RateLimiterMemory({
      keyPrefix: 'sign-in-account',
      points: options.perAccount ?? 5,
      duration,
    });
    this.perAddress = new RateLimiterMemory({
      keyPrefix: 'sign-in-address',
      points: options.perAddress ?? 50,
      duration,
    });
  }

  async check(email: string, address: string): Promise<ThrottleDecision> {
    const [account, ip] = await Promise.all([
      this.perAccount.get(accountKey(email, address)),
      this.perAddress.get(address),
    ]);
    const spent = [
      { res: account, limit: this.perAccount.points },
      { res: ip, limit: this.perAddress.points },
    ].filter((s) => s.res !== null && s.res.consumedPoints >= s.limit);
    if (spent.length === 0) return { allowed: true };
    const ms = Math.max(...spent.map((s) => s.res!.msBeforeNext));
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) };
  }

  async recordFailure(email: string, address: string): Promise<void> {
    await Promise.all([
      this.perAccount.penalty(accountKey(email, address)),
      this.perAddress.penalty(address),
    ]);
  }

  async recordSuccess(email: string, address: string): Promise<void> {
    await this.perAccount.delete(accountKey(email, address));
  }
}

function accountKey(email: string, address: string): string {
  return `${email.trim().toLowerCase()}|${address}`;
}
