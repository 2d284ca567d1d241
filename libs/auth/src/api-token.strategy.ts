import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { ApiPrincipal } from '@vigil/control-plane';
import { Strategy } from 'passport-http-bearer';
import { AUTH_REALM } from './auth-error';
import { authenticateBearerToken } from './authenticate-bearer-token';
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

  validate(token: string): Promise<ApiPrincipal> {
    return authenticateBearerToken(this.authenticator, token);
  }
}
