import { HttpException } from '@nestjs/common';
import { ApiError, isApiErrorCode, isHttpMappable, type ApiErrorCode } from './api-error';

/** Body-parser failures carry a `type`; map them to the documented codes. */
interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/**
 * What the API answers for an exception: an ApiError as it is; an error that knows its HTTP
 * answer (authentication); a use case's refusal by its code (`code` one of ApiErrorCode, with
 * `message` and `details`); body-parser and routing failures. Anything else is a 500
 * `internal_error`: a bug by definition.
 */
export function apiErrorOf(exception: unknown): ApiError {
  if (exception instanceof ApiError) return exception;
  if (isHttpMappable(exception)) {
    return new ApiError(
      exception.httpStatus,
      exception.code as ApiErrorCode,
      exception.message,
      exception.details ?? {},
      exception.headers ?? {},
    );
  }
  if (exception instanceof Error) {
    const { code, details } = exception as Error & { code?: unknown; details?: unknown };
    if (isApiErrorCode(code)) {
      return ApiError.ofCode(code, exception.message, isRecord(details) ? details : {});
    }
  }
  const parserError = exception as BodyParserError;
  if (parserError?.type === 'entity.too.large') {
    return new ApiError(413, 'payload_too_large', 'The request body is too large', {});
  }
  if (parserError?.type === 'entity.parse.failed') {
    return ApiError.badRequest('The request body is not valid JSON');
  }
  if (parserError?.type === 'charset.unsupported' || parserError?.type === 'encoding.unsupported') {
    return new ApiError(415, 'unsupported_media_type', 'Unsupported body encoding', {});
  }
  // Any other client-side body failure (a compressed body that does not inflate, a body
  // shorter than its Content-Length) is the request's fault, not ours.
  if (parserError?.expose === true && isClientStatus(parserError.status)) {
    return ApiError.badRequest('The request body could not be read');
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) {
      return new ApiError(404, 'not_found', 'No such endpoint', {});
    }
    if (status < 500) return new ApiError(status, 'invalid_request', exception.message, {});
  }
  return new ApiError(500, 'internal_error', 'Internal error', {});
}

function isClientStatus(status: unknown): boolean {
  return typeof status === 'number' && status >= 400 && status < 500;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
