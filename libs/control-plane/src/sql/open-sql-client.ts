import { join } from 'node:path';
import { makeFolderPrivate } from '@vigil/config';
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
  /**
   * Server settings of the pool's connections (a real server only: the embedded database is
   * one session that every app of the process shares).
   */
  readonly sessionSettings?: Readonly<Record<string, string>>;
}

/**
 * The control plane's database: a `pg` pool when DATABASE_URL is set, otherwise the embedded
 * PostgreSQL shared by every app of the process (DESIGN.md §8), in a data folder made
 * owner-only (0700, files 0600). Either way, run the migrations next.
 */
export async function openSqlClient(options: OpenSqlClientOptions): Promise<SqlClient> {
  if (options.databaseUrl !== undefined && options.databaseUrl !== '') {
    return createPgSqlClient(options.databaseUrl, options.poolSize, {
      logger: options.logger,
      applicationName: options.applicationName,
      sessionSettings: options.sessionSettings,
    });
  }
  // The data folder holds the database, its WAL, the log and the secrets key: owner-only.
  if (options.dataDir !== '') makeFolderPrivate(options.dataDir);
  return openPgliteSqlClient(join(options.dataDir, 'postgres'), { logger: options.logger });
}
