import {
  type AuthorizationChecks,
  type AuthorizationStart,
  type FailureRecorded,
  type OidcIdentity,
  type SignInLimit,
  type ThrottleDecision,
} from '@vigil/auth';
import {
  type AuditContext,
  type IdentityProvisioning,
  type PasswordCheck,
  type UserRecord,
  type VerifiedIdentity,
} from '@vigil/control-plane';

/** How someone signed in. */
export type SignInMethod = 'password' | 'oidc';

/** The user checks sign-in needs (UserService). */
export interface SignInUsers {
  checkPassword(email: string, password: string): Promise<PasswordCheck>;
  resolveIdentity(
    identity: VerifiedIdentity,
    provisioning: IdentityProvisioning,
    context?: Omit<AuditContext, 'actor'>,
  ): Promise<UserRecord>;
}

/** Failed sign-ins counted per address and account, with growing waits (SignInThrottle). */
export interface SignInThrottling {
  check(email: string, address: string): Promise<ThrottleDecision>;
  recordFailure(email: string, address: string): Promise<FailureRecorded>;
  recordSuccess(email: string, address: string): Promise<void>;
}

/** The OpenID Provider, as a relying party sees it (OpenIdConnectClient). */
export interface IdentityProvider {
  readonly issuerUrl: string;
  start(): Promise<AuthorizationStart>;
  finish(callbackQuery: string, checks: AuthorizationChecks): Promise<OidcIdentity>;
}

/** Lines for the operator's log; never given a password, a code or a secret. */
export interface SignInLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** A sign-in that got through. */
export interface SignInSucceeded {
  readonly method: SignInMethod;
  readonly user: UserRecord;
  readonly address: string | null;
}

/** A refused sign-in, throttled ones apart. */
export interface SignInFailed {
  readonly method: SignInMethod;
  /** A SignInErrorCode, or `disabled` for a right password of a disabled user. */
  readonly reason: string;
  readonly address: string | null;
}

/** An attempt held back by the throttle before its password was checked. */
export interface SignInThrottled {
  readonly limit: SignInLimit;
  readonly retryAfterSeconds: number;
  readonly address: string | null;
}

/**
 * Told of every sign-in outcome, after it is logged and audited: where counters hook in. Every
 * method must return at once and never throw.
 */
export interface SignInObserver {
  succeeded(event: SignInSucceeded): void;
  failed(event: SignInFailed): void;
  throttled(event: SignInThrottled): void;
}

export const NO_SIGN_IN_OBSERVER: SignInObserver = {
  succeeded: () => undefined,
  failed: () => undefined,
  throttled: () => undefined,
};
