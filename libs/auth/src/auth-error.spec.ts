import { AuthError } from './auth-error';
import { bearerTokenOf } from './bearer-token';

describe('AuthError', () => {
  it('carries the status, body and challenge of each refusal', () => {
    const cases: [AuthError, number, string][] = [
      [AuthError.missingToken(), 401, 'Bearer realm="vigil"'],
      [AuthError.invalidToken(), 401, 'Bearer realm="vigil", error="invalid_token"'],
      [AuthError.tokenExpired(), 401, 'Bearer realm="vigil", error="invalid_token"'],
      [
        AuthError.insufficientScope('detection', 'read'),
        403,
        'Bearer realm="vigil", error="insufficient_scope", scope="detection:read"',
      ],
    ];
    for (const [error, status, challenge] of cases) {
      expect(error.getStatus()).toBe(status);
      expect(error.httpStatus).toBe(status);
      expect(error.headers['WWW-Authenticate'].startsWith(challenge)).toBe(true);
      expect(error.getResponse()).toEqual({
        error: { code: error.code, message: error.message, details: error.details },
      });
    }
  });

  it('names the scope and level an insufficient token lacks', () => {
    const error = AuthError.insufficientScope('shadow_it', 'write');
    expect(error.code).toBe('insufficient_scope');
    expect(error.details).toEqual({ scope: 'shadow_it', level: 'write' });
    expect(error.message).toBe('This request needs the Shadow IT scope at Read and write or above');
  });

  it('is a 503 with Retry-After when the token store is unreachable', () => {
    const cause = new Error('ECONNREFUSED');
    const error = AuthError.backendUnavailable(cause);
    expect(error.getStatus()).toBe(503);
    expect(error.code).toBe('backend_unavailable');
    expect(error.headers).toEqual({ 'Retry-After': '5' });
    expect(error.cause).toBe(cause);
  });
});

describe('bearerTokenOf', () => {
  it('reads "Bearer <token>" with any case of the scheme', () => {
    expect(bearerTokenOf('Bearer abc')).toBe('abc');
    expect(bearerTokenOf('bearer abc')).toBe('abc');
  });

  it('refuses anything else', () => {
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      'Bearer  abc',
      'Basic abc',
      'Bearer a b',
      'abc',
    ]) {
      expect(bearerTokenOf(header)).toBeUndefined();
    }
  });
});
