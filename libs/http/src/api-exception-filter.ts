import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from '@vigil/config';
import { apiErrorOf } from './api-error-of';
import { REQUEST_ID_HEADER } from './request-id';

/**
 * The one place errors become HTTP responses (see apiErrorOf). Unknown errors are 500
 * `internal_error`, logged with the request id; they are bugs by definition.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const error = apiErrorOf(exception);
    const requestId = String(response.getHeader(REQUEST_ID_HEADER) ?? '');
    if (error.status >= 500 && error.code === 'internal_error') {
      this.logger.error({ err: exception, requestId, path: request.path }, 'unhandled error');
    }
    for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
    response.status(error.status).json({
      error: { code: error.code, message: error.message, details: error.details },
    });
  }
}
