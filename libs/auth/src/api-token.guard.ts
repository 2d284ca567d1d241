import { type ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { type IncomingHttpHeaders } from 'node:http';
import { AuthError } from './auth-error';
import { API_TOKEN_STRATEGY } from './api-token.strategy';

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
 * Authenticates the request with the API token strategy. Throws AuthError `missing_token` when
 * the Authorization header is absent, sent more than once or not `Bearer <token>` (tokens in the
 * query string or body are never accepted: they end up in logs), otherwise whatever the
 * strategy throws.
 */
@Injectable()
export class ApiTokenGuard extends AuthGuard(API_TOKEN_STRATEGY) {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context
      .switchToHttp()
      .getRequest<{ headers: IncomingHttpHeaders; rawHeaders?: string[] }>();
    if (
      bearerTokenOf(request.headers.authorization) === undefined ||
      hasSeveralAuthorizationHeaders(request.rawHeaders ?? [])
    ) {
      throw AuthError.missingToken();
    }
    return (await super.canActivate(context)) as boolean;
  }

  override handleRequest<TUser>(error: unknown, user: unknown): TUser {
    if (error)
      throw error instanceof Error
        ? error
        : new Error('API token authentication failed', { cause: error });
    // No error and no user: the strategy failed before validating (e.g. a token in both the
    // header and the query string).
    if (!user) throw AuthError.missingToken();
    return user as TUser;
  }
}
