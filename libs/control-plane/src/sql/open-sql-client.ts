import { join } from 'node:path';
import { createPgSqlClient } from './pg-sql-client';
import { openPgliteSqlClient } from './pglite-sql-client';
import { type ControlPlaneLogger, type SqlClient } from './sql-client';

export interface OpenSqlClientOptions {
  /** A PostgreSQL server; without one the embedded database in `dataDir` is used. */
  readonly databaseUrl?: string;
  /** Connections of the `pg` pool (a real server only). */
  readonly poolSize: number;
  /** VIGIL_DATA_DIR: the embedded database lives in its `postgres` folder. */
  readonly dataDir: string;
  readonly logger?: ControlPlaneLogger;
  readonly applicationName?: string;
}

/**
 * The control plane's database: a `pg` pool when DATABASE_URL is set, otherwise the embedded
 * PostgreSQL shared by every app of the process (DESIGN.md §8). Either way, run the migrations
 * next.
 */
export async function openSqlClient(options: OpenSqlClientOptions): Promise<SqlClient> {
  if (options.databaseUrl !== undefined && options.databaseUrl !== '') {
    return createPgSqlClient(options.databaseUrl, options.poolSize, {
      logger: options.logger,
      applicationName: options.applicationName,
    });
  }
  return openPgliteSqlClient(join(options.dataDir, 'postgres'), { logger: options.logger });
}
