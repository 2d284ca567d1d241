import { HttpException } from '@nestjs/common';
import { ApiError } from './api-error';
import { apiErrorOf } from './api-error-of';

/** A use case's refusal as the libs below the edge throw it: a code, no HTTP. */
class RefusedError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

describe('apiErrorOf', () => {
  it.each([
    ['invalid_request', 400],
    ['invalid_query', 400],
    ['not_found', 404],
  ])('answers a refusal coded %s with %i, its message and details', (code, status) => {
    const error = apiErrorOf(new RefusedError(code, 'what and where', { field: 'limit' }));
    expect(error).toEqual(
      new ApiError(status, code as ApiError['code'], 'what and where', { field: 'limit' }),
    );
    expect(error.headers).toEqual({});
  });

  it('asks the client to retry a backend that cannot answer now', () => {
    const error = apiErrorOf(
      new RefusedError('backend_unavailable', 'Elasticsearch is unavailable; retry later', {
        backend: 'Elasticsearch',
      }),
    );
    expect([error.status, error.details, error.headers]).toEqual([
      503,
      { backend: 'Elasticsearch' },
      { 'Retry-After': '5' },
    ]);
  });

  it('keeps the answer of an error that knows its HTTP status', () => {
    const known = Object.assign(new Error('slow down'), {
      code: 'rate_limited',
      httpStatus: 429,
      headers: { 'Retry-After': '7' },
    });
    expect([apiErrorOf(known).status, apiErrorOf(known).headers]).toEqual([
      429,
      { 'Retry-After': '7' },
    ]);
  });

  it('answers a code of no response, or any other error, with a 500', () => {
    for (const exception of [
      new RefusedError('email_taken', 'taken'),
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      new TypeError('a bug'),
    ]) {
      expect(apiErrorOf(exception)).toEqual(
        new ApiError(500, 'internal_error', 'Internal error', {}),
      );
    }
  });

  it('answers an unknown route with not_found', () => {
    expect(apiErrorOf(new HttpException('Cannot GET /x', 404)).code).toBe('not_found');
  });
});
