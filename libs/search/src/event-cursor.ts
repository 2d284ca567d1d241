/** Position after the last item of a page: the sort values (happened millis, id). */
export type EventSortKey = [number, string];

/**
 * Cursors are opaque to callers: base64url of the sort key. A cursor that does not decode to
 * a sort key is the caller's error, never ours.
 */
export function encodeCursor(key: EventSortKey): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): EventSortKey | null {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      Number.isSafeInteger(value[0]) &&
      typeof value[1] === 'string'
    ) {
      return [value[0] as number, value[1]];
    }
    return null;
  } catch {
    return null;
  }
}
