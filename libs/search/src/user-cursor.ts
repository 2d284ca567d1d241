/**
 * Cursors of the affected-users list: base64url of `{"email": <last email of the page>}`. The
 * shape differs from event cursors, so one is never mistaken for the other.
 */
export function encodeUserCursor(email: string): string {
  return Buffer.from(JSON.stringify({ email }), 'utf8').toString('base64url');
}

export function decodeUserCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.keys(value).length === 1 &&
      typeof (value as { email?: unknown }).email === 'string'
    ) {
      return (value as { email: string }).email;
    }
    return null;
  } catch {
    return null;
  }
}
