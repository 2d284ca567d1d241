import { z } from 'zod';
import { parseQuery, QueryError } from '@vigil/query-language';
import { decodeCursor, encodeCursor } from './event-cursor';
import type { EventView } from './event-documents';
import type { EventReadModel } from './event-read-model';
import { SearchRequestError } from './search-request-error';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

const eventsRequest = z
  .object({
    query: z.string().optional(),
    limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
    cursor: z.string().nullable().optional(),
  })
  .strict();

export interface EventsResponse {
  items: EventView[];
  pagination: { count: number; next_cursor: string | null };
}

/**
 * The use case behind both event endpoints (with `detectionId`, the events of that detection): validate the request, parse the query, read one
 * page and hand back the cursor of the next. Every caller mistake is a 400 saying what and
 * where (a SearchRequestError); nothing here can produce a 500 from input.
 */
export async function queryEvents(
  readModel: EventReadModel,
  body: unknown,
  detectionId?: string,
): Promise<EventsResponse> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw SearchRequestError.invalidRequest('The request body must be a JSON object');
  }
  const parsed = eventsRequest.safeParse(body);
  if (!parsed.success) {
    throw SearchRequestError.invalidRequest('The request body is invalid', {
      fields: parsed.error.issues.map((i) => ({
        field: i.path.join('.') || (i.code === 'unrecognized_keys' ? i.keys.join(', ') : ''),
        message: i.message,
      })),
    });
  }
  const request = parsed.data;
  let query;
  try {
    query = parseQuery(request.query ?? '');
  } catch (error) {
    if (error instanceof QueryError) {
      throw new SearchRequestError('invalid_query', error.message, {
        position: error.position,
        line: error.line,
        column: error.column,
        expected: error.expected,
        found: error.found,
      });
    }
    throw error;
  }
  let after;
  if (request.cursor) {
    after = decodeCursor(request.cursor);
    if (!after)
      throw SearchRequestError.invalidRequest('The cursor is not one this API returned', {
        field: 'cursor',
      });
  }
  const page = await readModel.searchEvents({
    query,
    detectionId,
    limit: request.limit ?? DEFAULT_PAGE_SIZE,
    after,
  });
  // An empty page of a detection is either its end or an unknown detection: only the latter is 404.
  if (
    detectionId !== undefined &&
    page.items.length === 0 &&
    !(await readModel.detectionExists(detectionId))
  ) {
    throw SearchRequestError.notFound('Detection', detectionId);
  }
  return {
    items: page.items,
    pagination: {
      count: page.items.length,
      next_cursor: page.next ? encodeCursor(page.next) : null,
    },
  };
}
