import { type SqlExecutor } from '../sql/sql-client';
import { SqlUserStore } from './sql-user-store';
import { UserService, type UserServiceOptions } from './user.service';

/** The user use cases over the `users` table of a SqlClient. */
export function createUserService(sql: SqlExecutor, options: UserServiceOptions = {}): UserService {
  return new UserService(new SqlUserStore(sql), options);
}
