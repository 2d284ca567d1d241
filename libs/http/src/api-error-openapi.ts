import { API_ERROR_CODES } from './api-error';

/**
 * The OpenAPI 3.0 description of the answers every token-guarded JSON API of Vigil gives alike:
 * the error shape of DESIGN.md §6, the request id, the per-token budget's headers and the
 * bearer challenge. The query API's and the ingest API's documents are built from these.
 */
export const requestIdHeader = {
  'x-request-id': {
    description: 'The request id, also in the log line of the request',
    schema: { type: 'string' },
  },
} as const;

export const retryAfterHeader = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
} as const;

export const bearerChallengeHeader = {
  'WWW-Authenticate': { description: 'RFC 6750 Bearer challenge', schema: { type: 'string' } },
} as const;

export const rateLimitHeaders = {
  'RateLimit-Limit': {
    description: 'Requests per minute for this token',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the window',
    schema: { type: 'integer' },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets',
    schema: { type: 'integer' },
  },
} as const;

/** The headers of a successful answer to a token's request. */
export const okHeaders = { ...requestIdHeader, ...rateLimitHeaders } as const;

/** An error answer: `{"error": {"code", "message", "details"}}` and its headers. */
export function errorResponse(description: string, headers: Record<string, object> = {}) {
  return {
    description,
    headers: { ...requestIdHeader, ...headers },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

/** The refusals of the token check, its scope, its budget and an unreachable backend. */
export function tokenErrorResponses(scope: string) {
  return {
    '401': errorResponse(
      'missing_token, invalid_token (unknown or deleted) or token_expired',
      bearerChallengeHeader,
    ),
    '403': errorResponse(`insufficient_scope: ${scope}`, bearerChallengeHeader),
    '429': errorResponse('rate_limited: too many requests for this token', {
      ...retryAfterHeader,
      ...rateLimitHeaders,
    }),
    '503': errorResponse('backend_unavailable: a backend cannot answer now', retryAfterHeader),
  };
}

/** The refusals of a request body: too large, or of a media type the route does not take. */
export function bodyErrorResponses(accepted: string, tooLarge = 'the body exceeds the size limit') {
  return {
    '413': errorResponse(`payload_too_large: ${tooLarge}`),
    '415': errorResponse(`unsupported_media_type: the body is not ${accepted}`),
  };
}

export const bearerSecurityScheme = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'vgk1-…',
    description: 'An API token, created in the web application or with `vigil token create`',
  },
} as const;

/** The `Error` component every error answer refers to. */
export const errorSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'message', 'details'],
      properties: {
        code: { type: 'string', enum: [...API_ERROR_CODES] },
        message: { type: 'string', description: 'For people: what is wrong and where' },
        details: {
          type: 'object',
          additionalProperties: true,
          description:
            'invalid_query: position, line, column, expected, found; insufficient_scope: ' +
            'scope, level; rate_limited: limit, retry_after_seconds; not_found: id; ' +
            'unsupported_media_type: accepted; payload_too_large: max_records, records (ingest); ' +
            'invalid_request: rejected (ingest, when no record of a batch is valid)',
        },
      },
    },
  },
} as const;
