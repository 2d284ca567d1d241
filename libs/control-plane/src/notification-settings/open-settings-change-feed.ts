import { isEmbeddedSqlClient } from '../sql/pglite-sql-client';
import { type ControlPlaneLogger, type SqlClient } from '../sql/sql-client';
import { PgSettingsChangeFeed } from './pg-settings-change-feed';
import { PgliteSettingsChangeFeed } from './pglite-settings-change-feed';
import { type SettingsChangeFeed } from './settings-change-feed';

export interface OpenSettingsChangeFeedOptions {
  /** The same value given to openSqlClient. */
  readonly databaseUrl?: string;
  /** The client openSqlClient returned; without `databaseUrl` it is the embedded one. */
  readonly sql: SqlClient;
  readonly logger?: ControlPlaneLogger;
}

/** LISTEN on a dedicated `pg` connection, or on the embedded database's only connection. */
export function openSettingsChangeFeed(options: OpenSettingsChangeFeedOptions): SettingsChangeFeed {
  if (options.databaseUrl !== undefined && options.databaseUrl !== '') {
    return new PgSettingsChangeFeed(options.databaseUrl, { logger: options.logger });
  }
  if (!isEmbeddedSqlClient(options.sql)) {
    throw new TypeError('Without a database URL the settings feed needs the embedded SQL client');
  }
  return new PgliteSettingsChangeFeed(options.sql);
}
