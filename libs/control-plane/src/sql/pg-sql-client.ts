import { Pool, type PoolClient, type QueryResultRow } from 'pg';
import {
  silentLogger,
  type ControlPlaneLogger,
  type SqlClient,
  type SqlExecutor,
  type SqlQueryOptions,
  type SqlResult,
} from './sql-client';
import { toSqlError } from './sql-unavailable-error';

export interface PgSqlClientOptions {
  /** How long to wait for a connection before failing with SqlUnavailableError. */
  readonly connectionTimeoutMillis?: number;
  readonly applicationName?: string;
  readonly logger?: ControlPlaneLogger;
  /** Server settings of every connection of the pool (`-c name=value` at connect, no round trip). */
  readonly sessionSettings?: Readonly<Record<string, string>>;
}

const SETTING_NAME = /^[a-z_][a-z0-9_.]*$/;
const SETTING_VALUE = /^[A-Za-z0-9_.]+$/;

/** The startup `options` of `settings`; names and values are plain words, so need no escaping. */
function startupOptions(settings: Readonly<Record<string, string>>): string | undefined {
  const entries = Object.entries(settings);
  if (entries.length === 0) return undefined;
  return entries
    .map(([name, value]) => {
      if (!SETTING_NAME.test(name) || !SETTING_VALUE.test(value)) {
        throw new Error(`invalid session setting ${JSON.stringify(`${name}=${value}`)}`);
      }
      return `-c ${name}=${value}`;
    })
    .join(' ');
}

type Queryable = Pick<Pool, 'query'> | Pick<PoolClient, 'query'>;

function executorOf(target: Queryable): SqlExecutor {
  return {
    async query<T>(
      text: string,
      params?: readonly unknown[],
      options?: SqlQueryOptions,
    ): Promise<SqlResult<T>> {
      const values = params === undefined ? undefined : [...params];
      try {
        const result =
          options?.prepareAs === undefined
            ? await target.query<QueryResultRow>(text, values)
            : await target.query<QueryResultRow>({ name: options.prepareAs, text, values });
        return { rows: result.rows as T[], rowCount: result.rowCount ?? 0 };
      } catch (error) {
        throw toSqlError(error);
      }
    },
    async exec(script: string): Promise<void> {
      try {
        // Without parameters pg uses the simple query protocol, which runs several statements.
        await target.query(script);
      } catch (error) {
        throw toSqlError(error);
      }
    },
  };
}

/**
 * A SqlClient on a PostgreSQL server, with its `pg` pool for libraries that take one (the
 * shared rate limits of libs/auth). Queries through the pool bypass the SqlClient's mapping of
 * outages to SqlUnavailableError: such a caller maps them itself (isUnavailableError).
 */
export interface PgSqlClient extends SqlClient {
  readonly pool: Pool;
}

export function isPgSqlClient(client: SqlClient): client is PgSqlClient {
  return (client as Partial<PgSqlClient>).pool instanceof Pool;
}

/** The SqlClient of a real PostgreSQL server, over a `pg` pool of `poolSize` connections. */
export function createPgSqlClient(
  url: string,
  poolSize: number,
  options: PgSqlClientOptions = {},
): PgSqlClient {
  const logger = options.logger ?? silentLogger;
  const pool = new Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5_000,
    idleTimeoutMillis: 30_000,
    application_name: options.applicationName ?? 'vigil',
    options: startupOptions(options.sessionSettings ?? {}),
  });
  // An idle connection that breaks (server restart) emits here; unhandled it would crash the
  // process. The pool replaces the connection on next use.
  pool.on('error', (error) => logger.error({ err: error }, 'idle database connection failed'));

  return {
    ...executorOf(pool),
    pool,
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      let connection: PoolClient;
      try {
        connection = await pool.connect();
      } catch (error) {
        throw toSqlError(error);
      }
      const tx = executorOf(connection);
      let broken: Error | undefined;
      // A checked-out connection has no pool listener: one the server drops between two of the
      // transaction's queries (a restart, an administrator's terminate) emits 'error' here, which
      // unheard would crash the process. The next query then fails and the transaction with it.
      const onError = (error: Error) => {
        broken = error;
        logger.warn({ err: error }, 'database connection failed during a transaction');
      };
      connection.on('error', onError);
      try {
        await tx.exec('BEGIN');
        const result = await fn(tx);
        await tx.exec('COMMIT');
        return result;
      } catch (error) {
        try {
          await connection.query('ROLLBACK');
        } catch (rollbackError) {
          broken = rollbackError instanceof Error ? rollbackError : new Error('rollback failed');
        }
        throw error;
      } finally {
        connection.off('error', onError);
        // A connection that failed, or whose rollback failed, is destroyed rather than returned
        // to the pool.
        connection.release(broken);
      }
    },
    async close(): Promise<void> {
      await pool.end();
    },
  };
}
