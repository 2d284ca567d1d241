/**
 * Text for a TextRun, shown as typed. A TextRun renders no Markdown, but Adaptive Card hosts
 * still expand `{{DATE(...)}}` and `{{TIME(...)}}` functions in text, so a zero-width space is
 * put between two opening braces: the text reads the same and no function can be formed.
 * Escapes one code point at a time (see escapeAndTruncate), looking back one code point.
 */
export function teamsTextEscaper(): (codePoint: string) => string {
  let previous = '';
  return (codePoint) => {
    const escaped = codePoint === '{' && previous === '{' ? '\u200b{' : codePoint;
    previous = codePoint;
    return escaped;
  };
}

export function escapeTeamsText(text: string): string {
  const escape = teamsTextEscaper();
  let out = '';
  for (const codePoint of text) out += escape(codePoint);
  return out;
}
