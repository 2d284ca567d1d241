export type SearchRequestErrorCode = 'invalid_request' | 'invalid_query' | 'not_found';

/**
 * A search the read model refuses: a malformed request or query, or an unknown detection.
 * `details` say what and where; the edge maps the code to its response.
 */
export class SearchRequestError extends Error {
  constructor(
    readonly code: SearchRequestErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'SearchRequestError';
  }

  static invalidRequest(
    message: string,
    details: Record<string, unknown> = {},
  ): SearchRequestError {
    return new SearchRequestError('invalid_request', message, details);
  }

  static notFound(what: string, id: string): SearchRequestError {
    return new SearchRequestError('not_found', `${what} ${JSON.stringify(id)} was not found`, {
      id,
    });
  }
}
