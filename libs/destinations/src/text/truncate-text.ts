/** What a cut text ends with: one character, so it costs one unit of any limit. */
export const ELLIPSIS = '\u2026';

const identity = (codePoint: string): string => codePoint;

/**
 * `text` escaped code point by code point, then cut to at most `max` UTF-16 code units (the
 * unit every limit here is counted in: never fewer than the characters a service counts). A cut
 * falls between escaped code points, so it never splits a surrogate pair or an entity such as
 * `&amp;`, and the result then ends with an ellipsis.
 */
export function escapeAndTruncate(
  text: string,
  max: number,
  escape: (codePoint: string) => string = identity,
): string {
  if (max <= 0) return '';
  const parts: string[] = [];
  let length = 0;
  for (const codePoint of text) {
    const part = escape(codePoint);
    parts.push(part);
    length += part.length;
  }
  if (length <= max) return parts.join('');
  let kept = '';
  for (const part of parts) {
    if (kept.length + part.length > max - ELLIPSIS.length) break;
    kept += part;
  }
  return kept + ELLIPSIS;
}

/** `text` cut to at most `max` UTF-16 code units, with an ellipsis when cut. */
export function truncateText(text: string, max: number): string {
  return escapeAndTruncate(text, max);
}
