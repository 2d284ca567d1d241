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

/** The HTTP status each code answers with (DESIGN.md §6). */
const STATUS_OF_CODE: Readonly<Record<ApiErrorCode, number>> = {
  invalid_query: 400,
  invalid_request: 400,
  missing_token: 401,
  invalid_token: 401,
  token_expired: 401,
  insufficient_scope: 403,
  not_found: 404,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  backend_unavailable: 503,
  internal_error: 500,
};

/** Every code an error answer may carry, in the order of ApiErrorCode. */
export const API_ERROR_CODES = Object.keys(STATUS_OF_CODE) as readonly ApiErrorCode[];

/** How long a client waits before it asks a backend that could not answer again. */
const BACKEND_RETRY_AFTER_SECONDS = 5;

export function isApiErrorCode(code: unknown): code is ApiErrorCode {
  return typeof code === 'string' && Object.hasOwn(STATUS_OF_CODE, code);
}

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

  /** The response to a refusal carrying one of the codes: the status the code stands for. */
  static ofCode(
    code: ApiErrorCode,
    message: string,
    details: Record<string, unknown> = {},
  ): ApiError {
    const headers: Record<string, string> =
      code === 'backend_unavailable' ? { 'Retry-After': String(BACKEND_RETRY_AFTER_SECONDS) } : {};
    return new ApiError(STATUS_OF_CODE[code], code, message, details, headers);
  }

  static badRequest(message: string, details: Record<string, unknown> = {}): ApiError {
    return new ApiError(400, 'invalid_request', message, details);
  }

  static notFound(what: string, id: string): ApiError {
    return new ApiError(404, 'not_found', `${what} ${JSON.stringify(id)} was not found`, {
      id,
    });
  }
}

/**
 * An error that already knows its HTTP answer (status, headers): those of the edge libs, such as
 * the API's authentication. Use cases below the edge carry a code only (see apiErrorOf).
 */
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
