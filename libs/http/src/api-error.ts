export type ApiErrorCode =
  | 'invalid_query'
  | 'invalid_request'
  | 'missing_token'
  | 'invalid_token'
  | 'token_expired'
  | 'insufficient_scope'
  | 'not_found'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'backend_unavailable'
  | 'internal_error';

/**
 * An error the edge maps straight to the stable response shape of DESIGN.md §6:
 * `{"error": {"code", "message", "details"}}`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static badRequest(message: string, details: Record<string, unknown> = {}): ApiError {
    return new ApiError(400, 'invalid_request', message, details);
  }

  static notFound(what: string, id: string): ApiError {
    return new ApiError(404, 'not_found', `${what} ${JSON.stringify(id)} was not found`, {
      id,
    });
  }

  static backendUnavailable(backend: string, retryAfterSeconds = 5): ApiError {
    return new ApiError(
      503,
      'backend_unavailable',
      `${backend} is unavailable; retry later`,
      { backend },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** Anything carrying a code and an HTTP status (auth and domain errors) maps to an ApiError. */
export interface HttpMappableError {
  code: string;
  httpStatus: number;
  message: string;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export function isHttpMappable(error: unknown): error is HttpMappableError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as HttpMappableError).code === 'string' &&
    typeof (error as HttpMappableError).httpStatus === 'number'
  );
}
