import { type SqlExecutor } from '../sql/sql-client';
import { ApiTokenService, type ApiTokenServiceOptions } from './api-token.service';
import { CoalescingApiTokenStore } from './coalescing-api-token-store';
import { SqlApiTokenStore } from './sql-api-token-store';

/** The token use cases over the `api_tokens` table of a SqlClient, lookups coalesced. */
export function createApiTokenService(
  sql: SqlExecutor,
  options: ApiTokenServiceOptions = {},
): ApiTokenService {
  return new ApiTokenService(new CoalescingApiTokenStore(new SqlApiTokenStore(sql)), options);
}
