import { createHash } from 'node:crypto';
import { type SignInLimit } from '@vigil/auth';
import { normalizeEmail, userActor, type AuditActor, type UserRecord } from '@vigil/control-plane';
import { isEmailAddress } from '@vigil/notification-policy';
import { type AuditTrail } from '../ports/audit-trail';
import {
  NO_SIGN_IN_OBSERVER,
  type SignInLogger,
  type SignInMethod,
  type SignInObserver,
} from '../ports/sign-in';

/** Where a sign-in attempt came from. */
export interface AttemptContext {
  readonly address: string | null;
  readonly requestId?: string | null;
}

export interface FailedAttempt extends AttemptContext {
  readonly method: SignInMethod;
  readonly reason: string;
  /** What was typed (password) or vouched for (single sign-on) as the email, if anything. */
  readonly email: string | null;
  /** The user it names, when there is one. */
  readonly user: UserRecord | null;
  /** Facts for the audit log and the log line: never a secret. */
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface ThrottledAttempt extends AttemptContext {
  readonly email: string;
  readonly limit: SignInLimit;
  readonly retryAfterSeconds: number;
}

/** Throttled attempts remembered, to audit each wait once rather than each refused request. */
const AUDITED_WAITS_MAX = 10_000;

/**
 * The one place where a sign-in outcome is recorded, whichever way it went and however the
 * person signed in: one log line (a `warn` with a stable `event` for every failure and throttle),
 * one audit event, and the observer (counters). An unknown account is named in the audit log by
 * what was typed only when it is a well-formed email address (a password typed into the email
 * field is never kept), and in log lines by its domain and a short hash only.
 */
export class SignInOutcomes {
  private readonly auditedWaits = new Map<string, number>();

  constructor(
    private readonly audit: AuditTrail,
    private readonly logger: SignInLogger,
    private readonly observer: SignInObserver = NO_SIGN_IN_OBSERVER,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async succeeded(user: UserRecord, method: SignInMethod, context: AttemptContext): Promise<void> {
    this.logger.info(
      { event: 'sign_in.succeeded', method, userId: user.id, address: context.address },
      'signed in',
    );
    await this.audit.append({
      action: 'user.sign_in.succeeded',
      context: { actor: userActor(user), ...contextOf(context) },
      target: { type: 'user', id: user.id },
      details: { method },
      occurredAt: this.clock(),
    });
    this.observer.succeeded({ method, user, address: context.address });
  }

  async failed(attempt: FailedAttempt): Promise<void> {
    const { method, reason, user, address } = attempt;
    this.logger.warn(
      {
        event: 'sign_in.failed',
        method,
        reason,
        address,
        ...(user === null ? accountFields(attempt.email) : { userId: user.id }),
        ...attempt.details,
      },
      'sign-in refused',
    );
    await this.audit.append({
      action: 'user.sign_in.failed',
      context: { actor: actorOf(user, attempt.email), ...contextOf(attempt) },
      target: user === null ? null : { type: 'user', id: user.id },
      details: { method, reason, ...attempt.details },
      occurredAt: this.clock(),
    });
    this.observer.failed({ method, reason, address });
  }

  async throttled(attempt: ThrottledAttempt): Promise<void> {
    const { limit, retryAfterSeconds, address } = attempt;
    this.logger.warn(
      {
        event: 'sign_in.throttled',
        method: 'password',
        limit,
        retryAfterSeconds,
        address,
        ...accountFields(attempt.email),
      },
      'sign-in held back by the throttle',
    );
    if (this.firstOfItsWait(attempt)) {
      await this.audit.append({
        action: 'user.sign_in.failed',
        context: { actor: actorOf(null, attempt.email), ...contextOf(attempt) },
        details: { method: 'password', reason: 'throttled', limit, retryAfterSeconds },
        occurredAt: this.clock(),
      });
    }
    this.observer.throttled({ limit, retryAfterSeconds, address });
  }

  /**
   * Whether this is the first refusal of its wait (per limit, address and account) seen here:
   * a flood of refused attempts is one audit event per wait, while every one is logged.
   */
  private firstOfItsWait(attempt: ThrottledAttempt): boolean {
    const now = this.clock().getTime();
    const key = `${attempt.limit}|${attempt.address ?? ''}|${emailHash(attempt.email)}`;
    const until = this.auditedWaits.get(key);
    if (until !== undefined && until > now) return false;
    if (this.auditedWaits.size >= AUDITED_WAITS_MAX) this.auditedWaits.clear();
    this.auditedWaits.set(key, now + attempt.retryAfterSeconds * 1000);
    return true;
  }
}

function contextOf(context: AttemptContext): { address: string | null; requestId: string | null } {
  return { address: context.address, requestId: context.requestId ?? null };
}

function wellFormed(email: string | null): string | null {
  if (email === null) return null;
  const normalized = normalizeEmail(email);
  return isEmailAddress(normalized) ? normalized : null;
}

/** A known user by id and email; an unknown account by a well-formed typed email, or not at all. */
function actorOf(user: UserRecord | null, email: string | null): AuditActor {
  if (user !== null) return userActor(user);
  return { type: 'user', id: null, label: wellFormed(email) ?? '(not an email address)' };
}

function emailHash(email: string | null): string {
  return createHash('sha256')
    .update(normalizeEmail(email ?? ''))
    .digest('hex')
    .slice(0, 12);
}

/** How a log line names an account that may not exist: its domain and a short hash. */
function accountFields(email: string | null): Record<string, string> {
  const address = wellFormed(email);
  if (address === null) return { account: 'not an email address' };
  return {
    emailDomain: address.slice(address.lastIndexOf('@') + 1),
    emailHash: emailHash(address),
  };
}
