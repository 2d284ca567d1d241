import type { AffectedUser, EventReadModel } from './event-read-model';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './query-events';
import { SearchRequestError } from './search-request-error';
import { decodeUserCursor, encodeUserCursor } from './user-cursor';

export interface AffectedUsersResponse {
  items: AffectedUser[];
  pagination: { count: number; next_cursor: string | null };
}

const PARAMETERS = new Set(['limit', 'cursor']);

/**
 * One page of a detection's affected users, ordered by email. `params` is the query string as
 * parsed: `limit` (1–1000, default 100) and `cursor`; anything else is the caller's mistake.
 */
export async function listAffectedUsers(
  readModel: EventReadModel,
  detectionId: string,
  params: Record<string, unknown>,
): Promise<AffectedUsersResponse> {
  const unknown = Object.keys(params).filter((name) => !PARAMETERS.has(name));
  if (unknown.length > 0) {
    throw SearchRequestError.invalidRequest(`Unknown query parameter: ${unknown.join(', ')}`, {
      fields: unknown.map((field) => ({ field, message: 'not a parameter of this endpoint' })),
    });
  }
  const limit = parseLimit(params.limit);
  let after: string | undefined;
  if (params.cursor !== undefined) {
    const decoded = typeof params.cursor === 'string' ? decodeUserCursor(params.cursor) : null;
    if (decoded === null) {
      throw SearchRequestError.invalidRequest('The cursor is not one this API returned', {
        field: 'cursor',
      });
    }
    after = decoded;
  }
  const page = await readModel.listAffectedUsers({ detectionId, limit, after });
  if (page.items.length === 0 && !(await readModel.detectionExists(detectionId))) {
    throw SearchRequestError.notFound('Detection', detectionId);
  }
  return {
    items: page.items,
    pagination: {
      count: page.items.length,
      next_cursor: page.next === null ? null : encodeUserCursor(page.next),
    },
  };
}

function parseLimit(value: unknown): number {
  if (value === undefined) return DEFAULT_PAGE_SIZE;
  const limit = typeof value === 'string' && /^[0-9]{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= MAX_PAGE_SIZE)) {
    throw SearchRequestError.invalidRequest(`limit must be an integer from 1 to ${MAX_PAGE_SIZE}`, {
      field: 'limit',
    });
  }
  return limit;
}
