/**
 * Cursors of the detection list: base64url of `{"offset": n}`. Detections are ordered by their
 * last activity, which no index holds, so the list pages by position; a detection that becomes
 * active while someone pages moves to the top and may be skipped or shown twice.
 */
export const MAX_DETECTION_LIST_OFFSET = 10_000;

export function encodeDetectionCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset }), 'utf8').toString('base64url');
}

export function decodeDetectionCursor(cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const offset = (value as { offset?: unknown } | null)?.offset;
    if (
      typeof value === 'object' &&
      value !== null &&
      Object.keys(value).length === 1 &&
      typeof offset === 'number' &&
      Number.isSafeInteger(offset) &&
      offset > 0 &&
      offset <= MAX_DETECTION_LIST_OFFSET
    ) {
      return offset;
    }
    return null;
  } catch {
    return null;
  }
}
