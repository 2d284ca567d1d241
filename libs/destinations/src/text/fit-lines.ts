/** The longest prefix of `lines` whose newline-joined text has at most `max` code units. */
export function fitLines(lines: readonly string[], max: number): string[] {
  const kept: string[] = [];
  let length = -1;
  for (const line of lines) {
    if (length + 1 + line.length > max) break;
    kept.push(line);
    length += 1 + line.length;
  }
  return kept;
}
