import type { IncomingHttpHeaders } from 'node:http';
import { AuthError } from './auth-error';

/** `Bearer <token>`, exactly as passport-http-bearer splits it. */
export function bearerTokenOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const parts = authorization.split(' ');
  if (parts.length !== 2 || !/^bearer$/i.test(parts[0]) || parts[1].length === 0) return undefined;
  return parts[1];
}

/**
 * Whether the request carried more than one Authorization header line. Node keeps only the
 * first in `headers`, so a proxy reading the last would authorize a different token than we do:
 * such a request is refused rather than guessed at.
 */
function hasSeveralAuthorizationHeaders(rawHeaders: readonly string[]): boolean {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() === 'authorization') count += 1;
  }
  return count > 1;
}

/**
 * The token of the request's one `Authorization: Bearer <token>` header. Throws AuthError
 * `missing_token` when the header is absent, sent more than once or of another form (tokens in
 * the query string or body are never accepted: they end up in logs).
 */
export function presentedBearerToken(request: {
  readonly headers: IncomingHttpHeaders;
  readonly rawHeaders?: readonly string[];
}): string {
  const token = bearerTokenOf(request.headers.authorization);
  if (token === undefined || hasSeveralAuthorizationHeaders(request.rawHeaders ?? [])) {
    throw AuthError.missingToken();
  }
  return token;
}
