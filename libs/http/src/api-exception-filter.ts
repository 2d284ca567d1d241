import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from '@vigil/config';
import { ApiError, isHttpMappable, type ApiErrorCode } from './api-error';
import { REQUEST_ID_HEADER } from './request-id';

/** Body-parser failures carry a `type`; map them to the documented codes. */
interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/**
 * The one place errors become HTTP responses. Unknown errors are 500 `internal_error`, logged
 * with the request id; they are bugs by definition.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const error = this.toApiError(exception);
    const requestId = String(response.getHeader(REQUEST_ID_HEADER) ?? '');
    if (error.status >= 500 && error.code === 'internal_error') {
      this.logger.error({ err: exception, requestId, path: request.path }, 'unhandled error');
    }
    for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
    response.status(error.status).json({
      error: { code: error.code, message: error.message, details: error.details },
    });
  }

  private toApiError(exception: unknown): ApiError {
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
    const parserError = exception as BodyParserError;
    if (parserError?.type === 'entity.too.large') {
      return new ApiError(413, 'payload_too_large', 'The request body is too large', {});
    }
    if (parserError?.type === 'entity.parse.failed') {
      return ApiError.badRequest('The request body is not valid JSON');
    }
    if (
      parserError?.type === 'charset.unsupported' ||
      parserError?.type === 'encoding.unsupported'
    ) {
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
}

function isClientStatus(status: unknown): boolean {
  return typeof status === 'number' && status >= 400 && status < 500;
}
