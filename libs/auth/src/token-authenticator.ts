import { type AuthenticationResult } from '@vigil/control-plane';

/**
 * What the API authentication needs from the token store: ApiTokenService satisfies it. It may
 * throw SqlUnavailableError when the database is down; authentication then fails closed (503).
 */
export interface TokenAuthenticator {
  authenticate(value: string): Promise<AuthenticationResult>;
}

export const TOKEN_AUTHENTICATOR = Symbol('TOKEN_AUTHENTICATOR');
