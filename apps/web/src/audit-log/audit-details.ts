const MAX_LINES = 6;
const MAX_VALUE = 120;
const MAX_DEPTH = 3;

type Flat = Map<string, unknown>;

/** Leaves of `value` by dotted path, objects opened up to MAX_DEPTH; arrays are leaves. */
function flatten(value: unknown, path = '', depth = 0, into: Flat = new Map()): Flat {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && depth < MAX_DEPTH) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0 && path !== '') into.set(path, value);
    for (const [key, inner] of entries) {
      flatten(inner, path === '' ? key : `${path}.${key}`, depth + 1, into);
    }
    return into;
  }
  into.set(path, value);
  return into;
}

/** A value as one short line: lists joined, nothing as “none”, long ones cut. */
export function shortValue(value: unknown): string {
  let text: string;
  if (value === null || value === undefined || value === '') text = 'none';
  else if (Array.isArray(value)) {
    text = value.length === 0 ? 'none' : value.map(shortValue).join(', ');
  } else if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
  else text = JSON.stringify(value) ?? 'none';
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** An instant stored as epoch milliseconds (a snooze's end, say) as ISO 8601; others as they are. */
function readable(path: string, value: unknown): unknown {
  const instant = /(until|At)$/.test(path) && typeof value === 'number' && value > 1e11;
  return instant ? new Date(value).toISOString() : value;
}

const absent = (value: unknown) => value === null || value === undefined;

/** `path: before → after` for every leaf that differs. */
function changes(before: unknown, after: unknown): string[] {
  if (typeof before !== 'object' && typeof after !== 'object') {
    return [`${shortValue(before)} → ${shortValue(after)}`];
  }
  const [was, is] = [flatten(before), flatten(after)];
  const paths = [...new Set([...was.keys(), ...is.keys()])];
  return paths
    .filter((path) => !(absent(was.get(path)) && absent(is.get(path))))
    .filter((path) => JSON.stringify(was.get(path)) !== JSON.stringify(is.get(path)))
    .map((path) => {
      const [from, to] = [readable(path, was.get(path)), readable(path, is.get(path))];
      return `${path === '' ? 'value' : path}: ${shortValue(from)} → ${shortValue(to)}`;
    });
}

/**
 * The details of an audit event as a few readable lines: its facts (`email: ada@example.com`),
 * then what a change did, field by field (`frequency: batch → immediate`). Secrets never reach
 * the details (the log redacts them when it writes); long lists end with how many more.
 */
export function auditDetailsLines(details: Readonly<Record<string, unknown>>): string[] {
  const { before, after, ...facts } = details;
  const lines = Object.entries(facts).map(([key, value]) => `${key}: ${shortValue(value)}`);
  if ('before' in details || 'after' in details) {
    const changed = changes(before, after);
    lines.push(...(changed.length === 0 ? ['no change'] : changed));
  }
  if (lines.length <= MAX_LINES) return lines;
  return [...lines.slice(0, MAX_LINES - 1), `and ${lines.length - MAX_LINES + 1} more`];
}
