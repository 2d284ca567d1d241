/** The one-time link pages, whose last path segment is the link's secret. */
const ONE_TIME_LINK = /^\/(invitation|reset-password)\/[^/?#]*/;

/**
 * A request path as it may be logged: the secret of an invitation or password reset link is
 * replaced, since whoever reads the logs could otherwise choose that user's password.
 */
export function logSafePath(path: string): string {
  return path.replace(ONE_TIME_LINK, '/$1/[redacted]');
}
