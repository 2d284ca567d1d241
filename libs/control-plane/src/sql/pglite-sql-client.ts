import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import { claimDataFolder, makeFolderPrivate } from '@vigil/config';
import {
  silentLogger,
  type ControlPlaneLogger,
  type SqlClient,
  type SqlExecutor,
  type SqlResult,
} from './sql-client';
import { SqlUnavailableError, toSqlError } from './sql-unavailable-error';

/**
 * A SqlClient on the embedded PostgreSQL (PGlite, DESIGN.md §8). It is one connection per
 * process, so it can also LISTEN: a NOTIFY from any client of the same data folder reaches it.
 */
export interface EmbeddedSqlClient extends SqlClient {
  readonly dataDir: string;
  /** Calls `onNotification` with each payload sent on `channel`; resolves to an unlisten. */
  listen(channel: string, onNotification: (payload: string) => void): Promise<() => Promise<void>>;
}

export interface PgliteSqlClientOptions {
  readonly logger?: ControlPlaneLogger;
}

export function isEmbeddedSqlClient(client: SqlClient): client is EmbeddedSqlClient {
  return typeof (client as Partial<EmbeddedSqlClient>).listen === 'function';
}

/** One PGlite per data folder in the process, shared by every client opened on that folder. */
interface SharedDatabase {
  readonly database: Promise<PGlite>;
  /** The transaction running on this database, seen from the code it runs. */
  readonly transactionScope: AsyncLocalStorage<{ open: boolean }>;
  references: number;
}

const sharedDatabases = new Map<string, SharedDatabase>();
/** Folders whose database is still closing: a new open waits, never two instances on one folder. */
const closingDatabases = new Map<string, Promise<void>>();

/**
 * Results read as `pg` reads them, so stores written against PostgreSQL see the same values:
 * int8 as a string, bytea as a Buffer. json parameters pass through when already text (as `pg`
 * sends them) instead of being encoded a second time.
 */
const PARSERS = {
  [types.INT8]: (value: string) => value,
  [types.BYTEA]: (value: string) => Buffer.from(value.slice(2), 'hex'),
};
const asJsonText = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);
const SERIALIZERS = { [types.JSON]: asJsonText, [types.JSONB]: asJsonText };

const releaseFolders = new Map<string, () => void>();

function keyOf(dataDir: string): string {
  return dataDir.startsWith('memory://') ? dataDir : resolve(dataDir);
}

async function createDatabase(key: string, logger: ControlPlaneLogger): Promise<PGlite> {
  await closingDatabases.get(key);
  if (!key.startsWith('memory://')) {
    // One process per folder: a second one would corrupt the first one's files.
    releaseFolders.set(key, claimDataFolder(key));
    mkdirSync(key, { recursive: true });
  }
  const started = Date.now();
  try {
    const database = await PGlite.create({
      dataDir: key,
      parsers: PARSERS,
      serializers: SERIALIZERS,
    });
    // PGlite writes its initial files with modes of its own (0666): owner-only, like the rest.
    if (!key.startsWith('memory://')) makeFolderPrivate(key);
    logger.info({ dataDir: key, ms: Date.now() - started }, 'opened the embedded database');
    return database;
  } catch (error) {
    releaseFolders.get(key)?.();
    releaseFolders.delete(key);
    throw new SqlUnavailableError(error);
  }
}

/**
 * The database is gone for good: closed, or its WebAssembly instance aborted (a
 * `WebAssembly.RuntimeError`). Checked by shape, since errors may come from another realm.
 */
function toEmbeddedSqlError(error: unknown): unknown {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  if (
    name === 'RuntimeError' ||
    (typeof message === 'string' && /PGlite is closed|PGlite is not ready/.test(message))
  ) {
    return new SqlUnavailableError(error);
  }
  return toSqlError(error);
}

function executorOf(target: Pick<PGlite, 'query' | 'exec'> | Transaction): SqlExecutor {
  return {
    async query<T>(text: string, params?: readonly unknown[]): Promise<SqlResult<T>> {
      try {
        const result = await target.query<T>(text, params === undefined ? undefined : [...params]);
        // affectedRows counts DML only; a SELECT's count is its rows, as with `pg`.
        return {
          rows: result.rows,
          rowCount: Math.max(result.affectedRows ?? 0, result.rows.length),
        };
      } catch (error) {
        throw toEmbeddedSqlError(error);
      }
    },
    async exec(script: string): Promise<void> {
      try {
        await target.exec(script);
      } catch (error) {
        throw toEmbeddedSqlError(error);
      }
    },
  };
}

/**
 * Opens the embedded database kept in `dataDir` (created and initialized on first use, which
 * takes several seconds; `memory://` keeps nothing). Clients of one folder in one process share
 * one PGlite, closed when the last of them closes.
 *
 * PGlite is a single connection: a transaction holds it exclusively, and every other query,
 * from any client of the folder, waits until the transaction ends. A query on the client
 * itself (instead of `tx`) from inside its own transaction would wait forever, so it fails.
 */
export async function openPgliteSqlClient(
  dataDir: string,
  options: PgliteSqlClientOptions = {},
): Promise<EmbeddedSqlClient> {
  const logger = options.logger ?? silentLogger;
  const key = keyOf(dataDir);
  let shared = sharedDatabases.get(key);
  if (shared === undefined) {
    const created: SharedDatabase = {
      database: createDatabase(key, logger),
      transactionScope: new AsyncLocalStorage(),
      references: 0,
    };
    sharedDatabases.set(key, created);
    created.database.catch(() => {
      if (sharedDatabases.get(key) === created) sharedDatabases.delete(key);
    });
    shared = created;
  }
  shared.references += 1;
  let database: PGlite;
  try {
    database = await shared.database;
  } catch (error) {
    shared.references -= 1;
    throw error;
  }
  const { transactionScope } = shared;
  const sharedDatabase = shared;
  let closed = false;

  const usable = (): void => {
    if (closed) throw new SqlUnavailableError(new Error('the embedded database client is closed'));
    if (transactionScope.getStore()?.open) {
      throw new Error(
        'A query on the embedded database client from inside its own transaction would wait ' +
          'forever: use the transaction executor',
      );
    }
  };
  const direct = executorOf(database);

  return {
    dataDir: key,
    async query<T>(text: string, params?: readonly unknown[]): Promise<SqlResult<T>> {
      usable();
      return direct.query<T>(text, params);
    },
    async exec(script: string): Promise<void> {
      usable();
      return direct.exec(script);
    },
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      usable();
      try {
        return await database.transaction(async (tx) => {
          const scope = { open: true };
          try {
            return await transactionScope.run(scope, () => fn(executorOf(tx)));
          } finally {
            scope.open = false;
          }
        });
      } catch (error) {
        throw toEmbeddedSqlError(error);
      }
    },
    async listen(channel, onNotification) {
      usable();
      try {
        const unlisten = await database.listen(channel, onNotification);
        return async () => {
          if (database.closed) return;
          await unlisten();
        };
      } catch (error) {
        throw toEmbeddedSqlError(error);
      }
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      sharedDatabase.references -= 1;
      if (sharedDatabase.references > 0) return;
      sharedDatabases.delete(key);
      const closing = database.close().finally(() => {
        closingDatabases.delete(key);
        releaseFolders.get(key)?.();
        releaseFolders.delete(key);
      });
      closingDatabases.set(key, closing);
      await closing;
      logger.info({ dataDir: key }, 'closed the embedded database');
    },
  };
}
