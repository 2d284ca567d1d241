/**
 * Slack's escaping of text objects: `&`, `<` and `>` are its control characters (links,
 * mentions such as `<!channel>` or `<@U123>`, dates) and must be sent as `&amp;`, `&lt;` and
 * `&gt;` when they are meant literally (docs.slack.dev, "Formatting text": Escaping text). With
 * no `<` left, user text cannot form a mention, a link or a command. Escapes one code point, so
 * truncation can cut between escapes (see escapeAndTruncate).
 */
export function escapeSlackCodePoint(codePoint: string): string {
  switch (codePoint) {
    case '&':
      return '&amp;';
    case '<':
      return '&lt;';
    case '>':
      return '&gt;';
    default:
      return codePoint;
  }
}

export function escapeSlackText(text: string): string {
  return text.replace(/[&<>]/g, escapeSlackCodePoint);
}
