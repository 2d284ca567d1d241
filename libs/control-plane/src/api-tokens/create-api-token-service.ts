import { type SqlExecutor } from '../sql/sql-client';
import { ApiTokenService, type ApiTokenServiceOptions } from './api-token.service';
import { SqlApiTokenStore } from './sql-api-token-store';

/** The token use cases over the `api_tokens` table of a SqlClient. */
export function createApiTokenService(
  sql: SqlExecutor,
  options: ApiTokenServiceOptions = {},
): ApiTokenService {
  return new ApiTokenService(new SqlApiTokenStore(sql), options);
}
