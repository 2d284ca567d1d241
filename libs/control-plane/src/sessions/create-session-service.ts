import { type SqlExecutor } from '../sql/sql-client';
import { SessionService, type SessionServiceOptions } from './session.service';
import { SqlSessionStore } from './sql-session-store';

/** The session use cases over the `sessions` table of a SqlClient. */
export function createSessionService(
  sql: SqlExecutor,
  options: SessionServiceOptions = {},
): SessionService {
  return new SessionService(new SqlSessionStore(sql), options);
}
