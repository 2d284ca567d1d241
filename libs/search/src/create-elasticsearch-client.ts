import { Client, errors } from '@elastic/elasticsearch';
import { ElasticsearchSearchError } from './elasticsearch-searcher';

/**
 * The official client, with `requestTimeoutMs` (10 s) as the longest any request may take: its
 * undici connection pool holds every socket to that timeout, so a per-request `requestTimeout`
 * can shorten it but never lengthen it.
 */
export function createElasticsearchClient(
  url: string,
  options: { readonly requestTimeoutMs?: number } = {},
): Client {
  return new Client({
    node: url,
    requestTimeout: options.requestTimeoutMs ?? 10_000,
    maxRetries: 2,
  });
}

/** True when Elasticsearch could not be reached or answered that it cannot serve now. */
export function isElasticsearchUnavailable(error: unknown): boolean {
  if (error instanceof ElasticsearchSearchError) return error.unavailable;
  if (
    error instanceof errors.ConnectionError ||
    error instanceof errors.NoLivingConnectionsError ||
    error instanceof errors.TimeoutError
  ) {
    return true;
  }
  if (error instanceof errors.ResponseError) {
    const status = error.statusCode ?? 0;
    return status === 429 || status === 502 || status === 503 || status === 504;
  }
  return false;
}
