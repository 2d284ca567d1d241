import type { ServerResponse } from 'node:http';
import type { Logger } from '@vigil/config';
import { answerJson } from './answer-json';
import type { ApiError } from './api-error';
import { apiErrorOf } from './api-error-of';
import { REQUEST_ID_HEADER } from './request-id';

/**
 * The one place errors become HTTP responses (see apiErrorOf), the body of DESIGN.md §6. Unknown
 * errors are 500 `internal_error`, logged with the request id; they are bugs by definition.
 */
export function answerApiError(
  response: ServerResponse,
  exception: unknown,
  context: { readonly logger: Logger; readonly path: string },
): ApiError {
  const error = apiErrorOf(exception);
  if (error.status >= 500 && error.code === 'internal_error') {
    const requestId = String(response.getHeader(REQUEST_ID_HEADER) ?? '');
    context.logger.error({ err: exception, requestId, path: context.path }, 'unhandled error');
  }
  for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
  answerJson(response, error.status, {
    error: { code: error.code, message: error.message, details: error.details },
  });
  return error;
}
