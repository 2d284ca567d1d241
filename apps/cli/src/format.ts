import { type ApiTokenView, TOKEN_STATE_LABELS, describePermissions } from '@vigil/control-plane';

/** `2026-03-01 09:00 UTC`: minute precision is what an operator reads in a list. */
export function formatInstant(at: Date | null): string {
  return at === null ? 'never' : `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Left-aligned columns separated by two spaces, with a header row. */
export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

export function formatTokenList(tokens: readonly ApiTokenView[]): string {
  if (tokens.length === 0) return 'No API tokens.';
  return formatTable(
    ['ID', 'NAME', 'STATE', 'CREATED', 'LAST USED', 'EXPIRES', 'LAST FOUR', 'SCOPES'],
    tokens.map((t) => [
      t.id,
      t.name,
      TOKEN_STATE_LABELS[t.state],
      formatInstant(t.createdAt),
      formatInstant(t.lastUsedAt),
      formatInstant(t.expiresAt),
      `…${t.lastFour}`,
      describePermissions(t.permissions).join(','),
    ]),
  );
}
