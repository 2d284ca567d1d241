import type { Pool } from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { isEmbeddedSqlClient, isPgSqlClient, type SqlClient } from '@vigil/control-plane';

/**
 * Where request budgets are counted: PostgreSQL (the `rate_limits` table of the control-plane
 * migrations), shared by every instance of every app on that database; or this process's
 * memory, which only the embedded mode uses, where one process runs every app.
 */
export type RateLimitStore =
  { readonly kind: 'postgres'; readonly pool: Pool } | { readonly kind: 'memory' };

export const RATE_LIMITS_TABLE = 'rate_limits';

/** The store that goes with the control plane's database: its pool, or memory when embedded. */
export function rateLimitStoreFor(sql: SqlClient): RateLimitStore {
  if (isPgSqlClient(sql)) return { kind: 'postgres', pool: sql.pool };
  if (isEmbeddedSqlClient(sql)) return { kind: 'memory' };
  throw new Error('Rate limits need the PostgreSQL or the embedded SQL client');
}

export interface FlexibleLimiterOptions {
  /** Keeps this limiter's keys apart from every other's in the shared table. */
  readonly keyPrefix: string;
  readonly points: number;
  readonly durationSeconds: number;
  /** PostgreSQL only: refuse a key from memory, until its window ends, once this many points
   * are spent, without asking the database. */
  readonly inMemoryBlockOnConsumed?: number;
}

/**
 * A rate-limiter-flexible limiter on `store`: on PostgreSQL, the migrated `rate_limits` table
 * (no DDL from the limiter), whose rows of windows that ended over an hour ago are deleted every
 * five minutes (an unref'd timer). Any limit shared by instances (API, ingest, sign-in) is built
 * here, so they all count in the same table.
 */
export function createFlexibleLimiter(
  store: RateLimitStore,
  options: FlexibleLimiterOptions,
): RateLimiterAbstract {
  const common = {
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
  };
  if (store.kind === 'memory') return new RateLimiterMemory(common);
  return new RateLimiterPostgres({
    ...common,
    storeClient: store.pool,
    storeType: 'pool',
    tableName: RATE_LIMITS_TABLE,
    tableCreated: true,
    clearExpiredByTimeout: true,
    inMemoryBlockOnConsumed: options.inMemoryBlockOnConsumed,
  });
}
