import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { isUnavailableError, type ApiPrincipal } from '@vigil/control-plane';
import { Strategy } from 'passport-http-bearer';
import { AUTH_REALM, AuthError } from './auth-error';
import { TOKEN_AUTHENTICATOR, type TokenAuthenticator } from './token-authenticator';

export const API_TOKEN_STRATEGY = 'api-token';

/**
 * Passport bearer strategy: checks the token of `Authorization: Bearer <token>` and makes its
 * principal `request.user`. Throws AuthError (invalid_token, token_expired, backend_unavailable);
 * any other error is a bug and propagates as such.
 */
@Injectable()
export class ApiTokenStrategy extends PassportStrategy(Strategy, API_TOKEN_STRATEGY) {
  constructor(@Inject(TOKEN_AUTHENTICATOR) private readonly authenticator: TokenAuthenticator) {
    super({ realm: AUTH_REALM });
  }

  async validate(token: string): Promise<ApiPrincipal> {
    let result;
    try {
      result = await this.authenticator.authenticate(token);
    } catch (error) {
      if (isUnavailableError(error)) throw AuthError.backendUnavailable(error);
      throw error;
    }
    if (result.ok) return result.principal;
    switch (result.code) {
      case 'invalid_token':
        throw AuthError.invalidToken();
      case 'token_expired':
        throw AuthError.tokenExpired();
    }
  }
}
