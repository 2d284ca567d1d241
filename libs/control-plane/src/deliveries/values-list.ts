/** Keeps multi-row statements well under PostgreSQL's 65,535 parameters. */
export const ROWS_PER_STATEMENT = 1000;

/** `($1, $2, ...), ($n+1, ...)` for a multi-row INSERT; `casts` are appended per column. */
export function valuesList(rows: number, columns: number, casts: string[] = []): string {
  return Array.from({ length: rows }, (_, r) => {
    const cells = Array.from(
      { length: columns },
      (_, c) => `$${r * columns + c + 1}${casts[c] ?? ''}`,
    );
    return `(${cells.join(', ')})`;
  }).join(', ');
}
