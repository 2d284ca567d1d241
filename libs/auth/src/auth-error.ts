import { HttpException } from '@nestjs/common';
import { levelLabel, scopeLabel, type PermissionLevel, type Scope } from '@vigil/control-plane';

export type AuthErrorCode =
  | 'missing_token'
  | 'invalid_token'
  | 'token_expired'
  | 'insufficient_scope'
  | 'backend_unavailable';

const HTTP_STATUS: Readonly<Record<AuthErrorCode, number>> = {
  missing_token: 401,
  invalid_token: 401,
  token_expired: 401,
  insufficient_scope: 403,
  backend_unavailable: 503,
};

export const AUTH_REALM = 'vigil';
const BACKEND_RETRY_AFTER_SECONDS = 5;

/**
 * Every refusal of the API authentication layer. It is an HttpException whose response is the
 * error body of DESIGN.md §6, `{"error":{"code","message","details"}}`, so even Nest's default
 * filter answers with the right status and body; the API's exception filter must also set
 * `error.headers` (WWW-Authenticate on 401/403, Retry-After on 503).
 */
export class AuthError extends HttpException {
  readonly httpStatus: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly code: AuthErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    options: { cause?: unknown } = {},
  ) {
    super({ error: { code, message, details } }, HTTP_STATUS[code], { cause: options.cause });
    this.name = 'AuthError';
    this.message = message;
    this.httpStatus = HTTP_STATUS[code];
    this.headers = headersFor(code, details);
  }

  static missingToken(): AuthError {
    return new AuthError(
      'missing_token',
      'Send the API token in the Authorization header, as "Bearer <token>"',
    );
  }

  static invalidToken(): AuthError {
    return new AuthError('invalid_token', 'The API token is not valid');
  }

  static tokenExpired(): AuthError {
    return new AuthError('token_expired', 'The API token has expired');
  }

  static insufficientScope(scope: Scope, level: PermissionLevel): AuthError {
    return new AuthError(
      'insufficient_scope',
      `This request needs the ${scopeLabel(scope)} scope at ${levelLabel(level)} or above`,
      { scope, level },
    );
  }

  static backendUnavailable(cause: unknown): AuthError {
    return new AuthError(
      'backend_unavailable',
      'API tokens cannot be checked right now; retry later',
      {},
      { cause },
    );
  }
}

/** RFC 6750 §3 challenges: no error code when no credentials were sent. */
function headersFor(
  code: AuthErrorCode,
  details: Readonly<Record<string, unknown>>,
): Record<string, string> {
  switch (code) {
    case 'missing_token':
      return { 'WWW-Authenticate': `Bearer realm="${AUTH_REALM}"` };
    case 'invalid_token':
    case 'token_expired':
      return {
        'WWW-Authenticate': `Bearer realm="${AUTH_REALM}", error="invalid_token", error_description="${
          code === 'token_expired' ? 'The token has expired' : 'The token is not valid'
        }"`,
      };
    case 'insufficient_scope':
      return {
        'WWW-Authenticate': `Bearer realm="${AUTH_REALM}", error="insufficient_scope", scope="${String(
          details.scope,
        )}:${String(details.level)}"`,
      };
    case 'backend_unavailable':
      return { 'Retry-After': String(BACKEND_RETRY_AFTER_SECONDS) };
  }
}
