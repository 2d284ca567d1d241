import { isUnavailableError, type ApiPrincipal } from '@vigil/control-plane';
import { AuthError } from './auth-error';
import type { TokenAuthenticator } from './token-authenticator';

/**
 * The principal of a presented API token. Throws AuthError (invalid_token, token_expired,
 * backend_unavailable when the store cannot be reached); any other error is a bug and
 * propagates as such.
 */
export async function authenticateBearerToken(
  authenticator: TokenAuthenticator,
  token: string,
): Promise<ApiPrincipal> {
  let result;
  try {
    result = await authenticator.authenticate(token);
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
