import { timingSafeEqual } from 'node:crypto';
import { OidcError, type OidcErrorCode, type OidcIdentity } from '@vigil/auth';
import {
  UserError,
  normalizeEmail,
  type SignInRequest,
  type SignInRequestStore,
  type UserRecord,
  type UserRole,
} from '@vigil/control-plane';
import { type IdentityProvider, type SignInUsers } from '../ports/sign-in';
import { SignInError, type SignInErrorCode } from '../sign-in/sign-in-error';
import { type AttemptContext, type SignInOutcomes } from '../sign-in/sign-in-outcomes';
import { stateHashOf } from '../start-single-sign-on/start-single-sign-on';

/** Who may be created at their first single sign-on. */
export interface SingleSignOnProvisioning {
  /** null: only existing users sign in. */
  readonly role: UserRole | null;
  /** Email domains (lowercase) whose people may be created. */
  readonly allowedDomains: readonly string[];
}

export interface FinishSingleSignOnCommand extends AttemptContext {
  /** The callback's query string, as the provider sent it. */
  readonly query: string;
  /** The state this browser kept when it left (its cookie), if any. */
  readonly browserState: string | undefined;
  readonly now: Date;
}

export interface FinishedSingleSignOn {
  readonly user: UserRecord;
  readonly nextPath: string;
}

const START_AGAIN = 'Start again from the sign-in page.';

const PROVIDER_FAILURES: Readonly<Record<OidcErrorCode, SignInErrorCode>> = {
  idp_refused: 'oidc_idp_refused',
  unavailable: 'oidc_unavailable',
  exchange_failed: 'oidc_exchange_failed',
};

function sameState(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Completes a single sign-on from the provider's callback: the state must be the one this
 * browser started and still waiting (taken once: a replayed callback is refused); the provider's
 * error, the code exchange and the ID token checks come next; then the verified email decides
 * the user (linked by issuer and subject, else by email, else created when allowed). Every
 * refusal is a SignInError that says why, recorded with its reason; nothing changes.
 */
export class FinishSingleSignOn {
  constructor(
    private readonly provider: IdentityProvider | null,
    private readonly requests: SignInRequestStore,
    private readonly users: SignInUsers,
    private readonly outcomes: SignInOutcomes,
    private readonly provisioning: SingleSignOnProvisioning,
  ) {}

  async execute(command: FinishSingleSignOnCommand): Promise<FinishedSingleSignOn> {
    let identity: OidcIdentity | null = null;
    try {
      const request = await this.takeRequest(command);
      identity = await this.identityFrom(request, command.query);
      const user = await this.userOf(identity, command);
      await this.outcomes.succeeded(user, 'oidc', command);
      return { user, nextPath: request.nextPath };
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      await this.outcomes.failed({
        ...command,
        method: 'oidc',
        reason: error.code,
        email: identity?.email ?? null,
        user: null,
        details: identity === null ? undefined : { issuer: identity.issuer },
      });
      throw error;
    }
  }

  private async takeRequest(command: FinishSingleSignOnCommand): Promise<SignInRequest> {
    if (this.provider === null) {
      throw new SignInError(
        'oidc_not_configured',
        'Single sign-on is not set up for this workspace.',
      );
    }
    const state = new URLSearchParams(command.query).get('state');
    if (state === null || state === '') {
      throw new SignInError(
        'oidc_state_missing',
        `The identity provider sent you back without the sign-in's state. ${START_AGAIN}`,
      );
    }
    if (command.browserState === undefined || !sameState(state, command.browserState)) {
      throw new SignInError(
        'oidc_foreign_state',
        'This sign-in response does not belong to a sign-in started in this browser, so it was ' +
          `refused. ${START_AGAIN}`,
      );
    }
    const request = await this.requests.take(stateHashOf(state));
    if (request === null) {
      throw new SignInError(
        'oidc_state_unknown',
        `This sign-in response was already used, or its sign-in was never started here. ${START_AGAIN}`,
      );
    }
    if (request.expiresAt <= command.now) {
      throw new SignInError(
        'oidc_state_expired',
        `This sign-in took too long (over 10 minutes) and expired. ${START_AGAIN}`,
      );
    }
    return request;
  }

  private async identityFrom(request: SignInRequest, query: string): Promise<OidcIdentity> {
    const error = new URLSearchParams(query).get('error');
    try {
      return await this.provider!.finish(query, {
        state: new URLSearchParams(query).get('state')!,
        nonce: request.nonce,
        codeVerifier: request.codeVerifier,
      });
    } catch (failure) {
      if (!(failure instanceof OidcError)) throw failure;
      const message =
        failure.code === 'idp_refused'
          ? `The identity provider refused the sign-in (${failure.providerError ?? error}): ${failure.message}`
          : failure.message;
      throw new SignInError(
        PROVIDER_FAILURES[failure.code],
        `${message.replace(/\.$/, '')}. ${START_AGAIN}`,
      );
    }
  }

  private async userOf(identity: OidcIdentity, context: AttemptContext): Promise<UserRecord> {
    const email = normalizeEmail(identity.email ?? '');
    if (email === '' || !identity.emailVerified) {
      throw new SignInError(
        'oidc_email_unverified',
        `The identity provider has not verified the email address ${email || '(none given)'}. ` +
          'Verify it with the provider, or ask an admin.',
      );
    }
    const domain = email.slice(email.lastIndexOf('@') + 1);
    const mayCreate =
      this.provisioning.role !== null && this.provisioning.allowedDomains.includes(domain);
    try {
      return await this.users.resolveIdentity(
        {
          issuer: identity.issuer,
          subject: identity.subject,
          email,
          emailVerified: true,
          name: identity.name ?? undefined,
        },
        { role: mayCreate ? this.provisioning.role : null },
        { address: context.address, requestId: context.requestId ?? null },
      );
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      throw this.refusalOf(error, email, domain);
    }
  }

  private refusalOf(error: UserError, email: string, domain: string): SignInError {
    switch (error.code) {
      case 'user_disabled':
        return new SignInError(
          'user_disabled',
          `The Vigil account for ${email} is disabled. Ask an admin to enable it.`,
        );
      case 'identity_conflict':
        return new SignInError(
          'oidc_identity_conflict',
          `The Vigil account for ${email} is linked to another account of the identity provider. Ask an admin.`,
        );
      case 'not_provisioned':
        return this.provisioning.role !== null
          ? new SignInError(
              'oidc_domain_not_allowed',
              `No Vigil account for ${email}, and accounts are created at first sign-in only for ` +
                `${this.provisioning.allowedDomains.join(', ')}, not ${domain}. Ask an admin to invite you.`,
            )
          : new SignInError(
              'oidc_not_provisioned',
              `No Vigil account for ${email}. Ask an admin to invite you.`,
            );
      default:
        return new SignInError('oidc_exchange_failed', error.message);
    }
  }
}
