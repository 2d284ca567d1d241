import { createHash } from 'node:crypto';
import { OidcError } from '@vigil/auth';
import { type SignInRequestStore } from '@vigil/control-plane';
import { type IdentityProvider } from '../ports/sign-in';
import { SignInError } from '../sign-in/sign-in-error';

/** How long the browser has to come back from the identity provider. */
export const SIGN_IN_REQUEST_LIFETIME_MS = 10 * 60 * 1000;

export interface StartedSingleSignOn {
  /** Where to send the browser. */
  readonly authorizationUrl: URL;
  /** Kept by this browser only (a cookie) until the callback: binds the callback to it. */
  readonly state: string;
  readonly expiresAt: Date;
}

export function stateHashOf(state: string): Buffer {
  return createHash('sha256').update(state).digest();
}

/**
 * Starts a single sign-on: a new authorization request (PKCE, state, nonce) whose checks are
 * kept server-side under the state's hash until the callback takes them, once.
 */
export class StartSingleSignOn {
  constructor(
    private readonly provider: IdentityProvider | null,
    private readonly requests: SignInRequestStore,
  ) {}

  async execute(command: {
    readonly nextPath: string;
    readonly now: Date;
  }): Promise<StartedSingleSignOn> {
    if (this.provider === null) {
      throw new SignInError(
        'oidc_not_configured',
        'Single sign-on is not set up for this workspace.',
      );
    }
    const start = await this.provider.start().catch((error: unknown) => {
      if (error instanceof OidcError) throw new SignInError('oidc_unavailable', error.message);
      throw error;
    });
    const expiresAt = new Date(command.now.getTime() + SIGN_IN_REQUEST_LIFETIME_MS);
    await this.requests.save({
      stateHash: stateHashOf(start.state),
      codeVerifier: start.codeVerifier,
      nonce: start.nonce,
      nextPath: command.nextPath,
      createdAt: command.now,
      expiresAt,
    });
    return { authorizationUrl: start.authorizationUrl, state: start.state, expiresAt };
  }
}
