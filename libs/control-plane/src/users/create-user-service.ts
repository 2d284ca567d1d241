import { type SqlClient } from '../sql/sql-client';
import { UserService, type UserServiceOptions } from './user.service';

/** The user use cases over the `users` tables of a SqlClient. */
export function createUserService(sql: SqlClient, options: UserServiceOptions = {}): UserService {
  return new UserService(sql, options);
}
