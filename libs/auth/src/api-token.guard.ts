import { type ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { type IncomingHttpHeaders } from 'node:http';
import { AuthError } from './auth-error';
import { API_TOKEN_STRATEGY } from './api-token.strategy';
import { presentedBearerToken } from './bearer-token';

/**
 * Authenticates the request with the API token strategy. Throws AuthError `missing_token` when
 * the Authorization header is absent, sent more than once or not `Bearer <token>` (tokens in the
 * query string or body are never accepted: they end up in logs), otherwise whatever the
 * strategy throws.
 */
@Injectable()
export class ApiTokenGuard extends AuthGuard(API_TOKEN_STRATEGY) {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    presentedBearerToken(
      context.switchToHttp().getRequest<{ headers: IncomingHttpHeaders; rawHeaders?: string[] }>(),
    );
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
