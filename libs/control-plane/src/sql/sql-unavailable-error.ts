/**
 * The database could not be reached or refused to serve (connection refused or lost, pool
 * timeout, server shutting down, too many connections, database missing). Callers that must
 * fail closed map it to `backend_unavailable` (HTTP 503); every other error is a bug or a
 * constraint violation and keeps its own type.
 */
export class SqlUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`Database unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'SqlUnavailableError';
  }
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** SQLSTATE classes and codes that mean "the server is not there for us right now". */
function isUnavailableSqlState(code: string): boolean {
  return (
    code.startsWith('08') || // connection exception
    code === '53300' || // too_many_connections
    code === '57P01' || // admin_shutdown
    code === '57P02' || // crash_shutdown
    code === '57P03' || // cannot_connect_now
    code === '3D000' // invalid_catalog_name: the database does not exist
  );
}

const POOL_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error',
  'Cannot use a pool after calling end',
];

export function isUnavailableError(error: unknown): boolean {
  if (error instanceof SqlUnavailableError) return true;
  // Duck-typed, not `instanceof Error`: socket errors may come from another realm (jest's VM).
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as {
    code?: unknown;
    message?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || isUnavailableSqlState(code))) {
    return true;
  }
  // net.connect to several addresses (localhost → ::1 and 127.0.0.1) fails with an AggregateError.
  if (Array.isArray(errors) && errors.some(isUnavailableError)) return true;
  return typeof message === 'string' && POOL_MESSAGES.some((m) => message.includes(m));
}

/** Rethrows `error` as a SqlUnavailableError when it means the database is unreachable. */
export function toSqlError(error: unknown): unknown {
  return isUnavailableError(error) && !(error instanceof SqlUnavailableError)
    ? new SqlUnavailableError(error)
    : error;
}
