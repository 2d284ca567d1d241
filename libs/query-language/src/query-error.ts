/** Where a query error was found and what the parser expected there. */
export interface QueryErrorDetails {
  /** 0-based offset in UTF-16 code units (a JavaScript string index into the query text). */
  readonly position: number;
  /** 1-based line; `\n`, `\r\n` and `\r` end a line. */
  readonly line: number;
  /** 1-based column, counted in Unicode code points (an emoji counts as one column). */
  readonly column: number;
  /** What was expected at `position`, e.g. "a quoted ISO 8601 UTC timestamp". */
  readonly expected: string;
  /** What was found instead: the token text (possibly shortened) or "end of query". */
  readonly found: string;
}

/**
 * The only error thrown by `parseQuery`: the query is syntactically wrong, uses an unknown field, a
 * literal of the wrong type, an operator the field does not support, or exceeds a limit.
 */
export class QueryError extends Error implements QueryErrorDetails {
  readonly code = 'invalid_query' as const;
  readonly position: number;
  readonly line: number;
  readonly column: number;
  readonly expected: string;
  readonly found: string;

  constructor(message: string, details: QueryErrorDetails) {
    super(message);
    this.name = 'QueryError';
    this.position = details.position;
    this.line = details.line;
    this.column = details.column;
    this.expected = details.expected;
    this.found = details.found;
  }

  /** A plain object for API error responses. */
  toJSON(): {
    code: 'invalid_query';
    message: string;
    position: number;
    line: number;
    column: number;
    expected: string;
    found: string;
  } {
    return {
      code: this.code,
      message: this.message,
      position: this.position,
      line: this.line,
      column: this.column,
      expected: this.expected,
      found: this.found,
    };
  }
}

/** 1-based line and column (in code points) of a UTF-16 offset in `text`. */
export function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  const end = Math.min(Math.max(position, 0), text.length);
  let i = 0;
  while (i < end) {
    const unit = text.charCodeAt(i);
    if (unit === 0x0a || (unit === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line += 1;
      column = 1;
      i += 1;
      continue;
    }
    const isPair =
      unit >= 0xd800 &&
      unit <= 0xdbff &&
      i + 1 < end &&
      text.charCodeAt(i + 1) >= 0xdc00 &&
      text.charCodeAt(i + 1) <= 0xdfff;
    i += isPair ? 2 : 1;
    column += 1;
  }
  return { line, column };
}
