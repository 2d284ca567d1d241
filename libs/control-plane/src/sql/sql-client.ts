/**
 * The control plane's port to a SQL database. The real adapter is `createPgSqlClient` (a `pg`
 * pool); an embedded PGlite adapter (DESIGN.md §8) implements the same interface and runs the
 * same migrations.
 */
export interface SqlResult<T> {
  readonly rows: T[];
  readonly rowCount: number;
}

export interface SqlQueryOptions {
  /**
   * Runs the statement as a prepared statement of this name: parsed and planned once per
   * connection, then only bound and executed. For the few statements run on every request; one
   * name, one text, always (the adapter does not compare them). Its result columns must be listed,
   * never `*`, so a migration that adds a column does not invalidate it. An embedded database,
   * in process, runs it as any other statement.
   */
  readonly prepareAs?: string;
}

export interface SqlExecutor {
  /** One statement with `$1`-style parameters. */
  query<T = Record<string, unknown>>(
    text: string,
    params?: readonly unknown[],
    options?: SqlQueryOptions,
  ): Promise<SqlResult<T>>;
  /** A script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

export interface SqlClient extends SqlExecutor {
  /**
   * Runs `fn` in one transaction on one connection: committed when `fn` resolves, rolled back
   * when it throws (the error is rethrown).
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Closes every connection; the client is unusable afterwards. */
  close(): Promise<void>;
}

/** The part of a pino logger the control plane uses. */
export interface ControlPlaneLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: ControlPlaneLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
