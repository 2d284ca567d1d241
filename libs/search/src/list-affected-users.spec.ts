import { apiErrorOf, type ApiError } from '@vigil/http';
import type { AffectedUserSearch, EventReadModel } from './event-read-model';
import { listAffectedUsers } from './list-affected-users';
import { encodeUserCursor } from './user-cursor';

const ada = {
  employee_email: 'ada@example.com',
  employee_name: 'Ada',
  event_count: 2,
  max_risk_score: 9.5,
  last_seen: '2025-01-01T00:00:00.000Z',
};

function readModel(known: boolean, next: string | null = null) {
  const searches: AffectedUserSearch[] = [];
  const model = {
    listAffectedUsers: async (search: AffectedUserSearch) => {
      searches.push(search);
      return { items: known && search.after === undefined ? [ada] : [], next };
    },
    detectionExists: async () => known,
  } as unknown as EventReadModel;
  return { model, searches };
}

/** What the API answers when the use case refuses. */
async function errorOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return apiErrorOf(error);
  }
  throw new Error('expected an error');
}

describe('listAffectedUsers', () => {
  it('asks for 100 users by default and hands back an opaque cursor for the next page', async () => {
    const { model, searches } = readModel(true, 'ada@example.com');
    const page = await listAffectedUsers(model, 'det-1', {});
    expect(searches).toEqual([{ detectionId: 'det-1', limit: 100, after: undefined }]);
    expect(page).toEqual({
      items: [ada],
      pagination: { count: 1, next_cursor: encodeUserCursor('ada@example.com') },
    });
  });

  it('continues after the cursor and answers an empty last page for a known detection', async () => {
    const { model, searches } = readModel(true);
    const page = await listAffectedUsers(model, 'det-1', {
      limit: '5',
      cursor: encodeUserCursor('ada@example.com'),
    });
    expect(searches[0]).toEqual({ detectionId: 'det-1', limit: 5, after: 'ada@example.com' });
    expect(page).toEqual({ items: [], pagination: { count: 0, next_cursor: null } });
  });

  it('answers an unknown detection with not_found', async () => {
    const error = await errorOf(listAffectedUsers(readModel(false).model, 'det-x', {}));
    expect([error.status, error.code]).toEqual([404, 'not_found']);
  });

  it.each([
    { limit: '0' },
    { limit: '1001' },
    { limit: '1.5' },
    { limit: ['1', '2'] },
    { cursor: 'nope' },
    { order: 'desc' },
  ])('refuses %j with invalid_request', async (params) => {
    const error = await errorOf(listAffectedUsers(readModel(true).model, 'det-1', params));
    expect([error.status, error.code]).toEqual([400, 'invalid_request']);
  });
});
