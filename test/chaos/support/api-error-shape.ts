import type { ApiErrorCode } from '@vigil/http';
import type { RawResponse } from './raw-http';

const ERROR_CODES: readonly ApiErrorCode[] = [
  'invalid_query',
  'invalid_request',
  'missing_token',
  'invalid_token',
  'token_expired',
  'insufficient_scope',
  'not_found',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'backend_unavailable',
];

export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string; details: Record<string, unknown> };
}

/**
 * The problems of a response against the contract every endpoint keeps (DESIGN.md §6): a 2xx,
 * or a 4xx with `{"error":{"code","message","details"}}` and a request id. An empty list means
 * the response is acceptable; the parsed body is returned for further checks.
 */
export function contractProblems(response: RawResponse): { problems: string[]; body: unknown } {
  const problems: string[] = [];
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    problems.push(`body is not JSON: ${response.text.slice(0, 200)}`);
  }
  const { status } = response;
  if (!((status >= 200 && status < 300) || (status >= 400 && status < 500))) {
    problems.push(`status ${status}: ${response.text.slice(0, 300)}`);
  }
  if (!response.headers['x-request-id']) problems.push('no x-request-id header');
  if (status >= 400 && body !== undefined) {
    const error = (body as Partial<ApiErrorBody>)?.error;
    if (typeof error !== 'object' || error === null) problems.push('no error object');
    else {
      if (!ERROR_CODES.includes(error.code)) problems.push(`unknown error code ${error.code}`);
      if (typeof error.message !== 'string' || error.message === '') problems.push('no message');
      if (
        typeof error.details !== 'object' ||
        error.details === null ||
        Array.isArray(error.details)
      )
        problems.push('details is not an object');
      if (Object.keys(body as object).length !== 1) problems.push('extra top-level keys');
    }
  }
  return { problems, body };
}
