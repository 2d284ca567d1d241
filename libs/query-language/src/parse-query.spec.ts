import { parseQuery } from './parse-query';
import { printQuery } from './print-query';
import { type ComparisonOperator, type ConditionNode, type Literal } from './query-ast';
import { QueryError } from './query-error';
import { QUERY_LIMITS } from './query-limits';
import { type FieldName } from './event-fields';

function parseError(text: string): QueryError {
  try {
    parseQuery(text);
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

const str = (value: string): Literal => ({ type: 'string', value });
const num = (value: number): Literal => ({ type: 'number', value });
const bool = (value: boolean): Literal => ({ type: 'boolean', value });
const ts = (text: string, value: number): Literal => ({ type: 'timestamp', value, text });
const cmp = (field: FieldName, op: ComparisonOperator, value: Literal): ConditionNode => ({
  kind: 'comparison',
  field,
  op,
  value,
});
const src = (value: string): ConditionNode => cmp('source', '=', str(value));

const EXPECTED_CONDITION = 'a condition (a field name, NOT or `(`)';
const EXPECTED_OPERATOR = 'a comparison operator (=, !=, <, >, <=, >=, IN or NOT IN)';
const EXPECTED_BOOLEAN_OPERATOR = '=, !=, IN or NOT IN';
const EXPECTED_FIELD =
  'a field name (one of id, employee_email, happened, risk_score, source, allowlisted, high_prevalence)';
const EXPECTED_TIMESTAMP = 'a quoted ISO 8601 UTC timestamp';
const EXPECTED_VALID_TIMESTAMP = `${EXPECTED_TIMESTAMP} (YYYY-MM-DDTHH:MM:SS[.sss]Z)`;

describe('parseQuery: valid queries (input → canonical print)', () => {
  it.each<[string, string]>([
    // The product spec's examples.
    ["happened > '2024-01-01T00:00:00.000Z'", "happened > '2024-01-01T00:00:00.000Z'"],
    ['risk_score > 5', 'risk_score > 5'],
    ["source = 'okta' AND allowlisted = false", "source = 'okta' AND allowlisted = false"],
    // Empty queries match everything.
    ['', ''],
    ['  \n\t\r\n ', ''],
    // id lookups and every operator.
    ["id = 'abc'", "id = 'abc'"],
    ["id != 'abc'", "id != 'abc'"],
    ["source < 'm'", "source < 'm'"],
    ["source >= 'm'", "source >= 'm'"],
    ['risk_score <= 5', 'risk_score <= 5'],
    // Whitespace is optional around operators and parentheses, and may be any Unicode space.
    ["source='okta'AND(risk_score>=5)", "source = 'okta' AND risk_score >= 5"],
    ["source\u00a0=\u00a0'a'", "source = 'a'"],
    ["source\n=\n'a'\nOR\tsource = 'b'", "source = 'a' OR source = 'b'"],
    // Quotes inside strings.
    ["source = 'O''Brien'", "source = 'O''Brien'"],
    ["source = ''''", "source = ''''"],
    ["source = ''", "source = ''"],
    // Unicode in strings: emoji, non-BMP, combining marks, newlines.
    ["source = '😀 𝔘𝔫𝔦 e\u0301'", "source = '😀 𝔘𝔫𝔦 e\u0301'"],
    ["source = 'line1\nline2'", "source = 'line1\nline2'"],
    // Precedence: AND binds tighter than OR; NOT binds tightest.
    [
      "source = 'a' OR source = 'b' AND source = 'c'",
      "source = 'a' OR source = 'b' AND source = 'c'",
    ],
    [
      "(source = 'a' OR source = 'b') AND source = 'c'",
      "(source = 'a' OR source = 'b') AND source = 'c'",
    ],
    [
      "source = 'a' AND (source = 'b' AND source = 'c')",
      "source = 'a' AND (source = 'b' AND source = 'c')",
    ],
    ["((source = 'a'))", "source = 'a'"],
    ["NOT source = 'a' AND source = 'b'", "NOT source = 'a' AND source = 'b'"],
    ["NOT (source = 'a' AND source = 'b')", "NOT (source = 'a' AND source = 'b')"],
    ["NOT NOT source = 'a'", "NOT NOT source = 'a'"],
    // Keywords are case-insensitive.
    [
      "source = 'a' and risk_score > 1 Or NOT allowlisted = TRUE",
      "source = 'a' AND risk_score > 1 OR NOT allowlisted = true",
    ],
    ["id In ('x') aNd high_prevalence != tRuE", "id IN ('x') AND high_prevalence != true"],
    ['allowlisted = False', 'allowlisted = false'],
    ["source not in ('a', 'b')", "NOT source IN ('a', 'b')"],
    ['allowlisted IN (true,false)', 'allowlisted IN (true, false)'],
    // employee_email literals are lowercased (like the index normalizer).
    ["employee_email = 'Alice@Example.COM'", "employee_email = 'alice@example.com'"],
    ["employee_email = 'İSTANBUL@X.COM'", "employee_email = 'istanbul@x.com'"],
    ["employee_email IN ('A@X', 'b@x')", "employee_email IN ('a@x', 'b@x')"],
    ["id = 'MixedCase'", "id = 'MixedCase'"],
    // Numbers: sign, fraction, exponent; -0 is 0.
    ['risk_score = -0', 'risk_score = 0'],
    ['risk_score >= +1.5e-3', 'risk_score >= 0.0015'],
    ['risk_score < 1E3', 'risk_score < 1000'],
    ['risk_score = 007', 'risk_score = 7'],
    ['risk_score > -2.5', 'risk_score > -2.5'],
    ['risk_score IN (1, 2.5, -3)', 'risk_score IN (1, 2.5, -3)'],
    ['risk_score < 1e21', 'risk_score < 1e+21'],
    // Timestamps keep their text.
    ["happened >= '2024-02-29'", "happened >= '2024-02-29'"],
    ["happened < '2024-01-01T00:00:00+00:00'", "happened < '2024-01-01T00:00:00+00:00'"],
    [
      "happened IN ('2024-01-01T00:00:00Z', '2024-01-02')",
      "happened IN ('2024-01-01T00:00:00Z', '2024-01-02')",
    ],
  ])('%j', (input, printed) => {
    const ast = parseQuery(input);
    expect(printQuery(ast)).toBe(printed);
    expect(parseQuery(printed)).toEqual(ast);
  });
});

describe('parseQuery: AST shape', () => {
  it('parses the spec examples', () => {
    expect(parseQuery("happened > '2024-01-01T00:00:00.000Z'")).toEqual(
      cmp('happened', '>', ts('2024-01-01T00:00:00.000Z', Date.UTC(2024, 0, 1))),
    );
    expect(parseQuery('risk_score > 5')).toEqual(cmp('risk_score', '>', num(5)));
    expect(parseQuery("source = 'okta' AND allowlisted = false")).toEqual({
      kind: 'and',
      children: [src('okta'), cmp('allowlisted', '=', bool(false))],
    });
    expect(parseQuery('')).toEqual({ kind: 'match_all' });
  });

  it('unescapes quotes', () => {
    expect(parseQuery("source = 'O''Brien'")).toEqual(src("O'Brien"));
    expect(parseQuery("source = ''''")).toEqual(src("'"));
  });

  it('gives AND precedence over OR and keeps n-ary chains flat', () => {
    expect(parseQuery("source = 'a' OR source = 'b' AND source = 'c'")).toEqual({
      kind: 'or',
      children: [src('a'), { kind: 'and', children: [src('b'), src('c')] }],
    });
    expect(parseQuery("source = 'a' AND source = 'b' OR source = 'c'")).toEqual({
      kind: 'or',
      children: [{ kind: 'and', children: [src('a'), src('b')] }, src('c')],
    });
    expect(parseQuery("source = 'a' OR source = 'b' OR source = 'c'")).toEqual({
      kind: 'or',
      children: [src('a'), src('b'), src('c')],
    });
  });

  it('keeps explicit groups (no implicit flattening)', () => {
    expect(parseQuery("(source = 'a' AND source = 'b') AND source = 'c'")).toEqual({
      kind: 'and',
      children: [{ kind: 'and', children: [src('a'), src('b')] }, src('c')],
    });
  });

  it('applies NOT to the following primary only', () => {
    expect(parseQuery("NOT source = 'a' OR source = 'b'")).toEqual({
      kind: 'or',
      children: [{ kind: 'not', child: src('a') }, src('b')],
    });
    expect(parseQuery("NOT (source = 'a' OR source = 'b')")).toEqual({
      kind: 'not',
      child: { kind: 'or', children: [src('a'), src('b')] },
    });
  });

  it('parses NOT IN as NOT around IN', () => {
    expect(parseQuery("source NOT IN ('a', 'b')")).toEqual({
      kind: 'not',
      child: { kind: 'in', field: 'source', values: [str('a'), str('b')] },
    });
  });

  it('parses typed literals', () => {
    expect(parseQuery("happened = '2024-01-01T12:34:56.7Z'")).toEqual(
      cmp('happened', '=', ts('2024-01-01T12:34:56.7Z', Date.UTC(2024, 0, 1, 12, 34, 56, 700))),
    );
    expect(parseQuery("happened >= '2024-02-29'")).toEqual(
      cmp('happened', '>=', ts('2024-02-29', Date.UTC(2024, 1, 29))),
    );
    expect(parseQuery('risk_score = -0')).toEqual(cmp('risk_score', '=', num(0)));
    expect(Object.is((parseQuery('risk_score = -0') as { value: Literal }).value.value, 0)).toBe(
      true,
    );
    expect(parseQuery('high_prevalence != TRUE')).toEqual(cmp('high_prevalence', '!=', bool(true)));
  });
});

interface InvalidCase {
  query: string;
  position: number;
  column?: number;
  line?: number;
  expected: string;
  found: string;
  message?: RegExp | string;
}

const INVALID: InvalidCase[] = [
  // Structure.
  {
    query: 'AND',
    position: 0,
    expected: EXPECTED_CONDITION,
    found: 'AND',
    message: /cannot start with a keyword/,
  },
  { query: "and source = 'a'", position: 0, expected: EXPECTED_CONDITION, found: 'and' },
  { query: "OR source = 'a'", position: 0, expected: EXPECTED_CONDITION, found: 'OR' },
  {
    query: "source = 'a' AND",
    position: 16,
    expected: EXPECTED_CONDITION,
    found: 'end of query',
    message:
      'expected a condition (a field name, NOT or `(`) after `AND` at column 17, found end of query',
  },
  {
    query: "source = 'a' OR OR source = 'b'",
    position: 16,
    expected: EXPECTED_CONDITION,
    found: 'OR',
  },
  {
    query: "source = 'a' AND AND source = 'b'",
    position: 17,
    expected: EXPECTED_CONDITION,
    found: 'AND',
  },
  {
    query: 'source',
    position: 6,
    expected: EXPECTED_OPERATOR,
    found: 'end of query',
    message:
      'expected a comparison operator (=, !=, <, >, <=, >=, IN or NOT IN) after `source` at column 7, found end of query',
  },
  { query: "source 'a'", position: 7, expected: EXPECTED_OPERATOR, found: "'a'" },
  {
    query: "source == 'a'",
    position: 7,
    expected: EXPECTED_OPERATOR,
    found: '==',
    message: /use a single =/,
  },
  {
    query: 'risk_score <> 5',
    position: 11,
    expected: EXPECTED_OPERATOR,
    found: '<>',
    message: /use !=/,
  },
  { query: "source ! 'a'", position: 7, expected: EXPECTED_OPERATOR, found: '!' },
  { query: 'source =', position: 8, expected: 'a quoted string', found: 'end of query' },
  {
    query: "source = 'a' source = 'b'",
    position: 13,
    expected: 'AND, OR or end of query',
    found: 'source',
  },
  {
    query: "source = 'a' NOT source = 'b'",
    position: 13,
    expected: 'AND, OR or end of query',
    found: 'NOT',
  },
  {
    query: "(source = 'a'",
    position: 13,
    expected: 'AND, OR or `)`',
    found: 'end of query',
    message: /to close the `\(` at column 1\)$/,
  },
  {
    query: "(source = 'a' source = 'b')",
    position: 14,
    expected: 'AND, OR or `)`',
    found: 'source',
  },
  {
    query: "source = 'a')",
    position: 12,
    expected: 'AND, OR or end of query',
    found: ')',
    message: /has no matching/,
  },
  {
    query: '()',
    position: 1,
    expected: EXPECTED_CONDITION,
    found: ')',
    message: /after `\(` at column 2/,
  },
  {
    query: 'NOT',
    position: 3,
    expected: EXPECTED_CONDITION,
    found: 'end of query',
    message: /after `NOT`/,
  },
  { query: "NOT AND source = 'a'", position: 4, expected: EXPECTED_CONDITION, found: 'AND' },
  { query: ')', position: 0, expected: EXPECTED_CONDITION, found: ')' },
  {
    query: "'source' = 'a'",
    position: 0,
    expected: EXPECTED_CONDITION,
    found: "'source'",
    message: /field names are not quoted/,
  },
  { query: 'TRUE', position: 0, expected: EXPECTED_CONDITION, found: 'TRUE' },
  // IN lists.
  { query: "source IN 'a'", position: 10, expected: '`(`', found: "'a'" },
  {
    query: 'source IN ()',
    position: 11,
    expected: 'a quoted string',
    found: ')',
    message:
      'expected a quoted string after `source IN (` at column 12, found `)` (an IN list needs at least one value)',
  },
  {
    query: "source IN ('a',)",
    position: 15,
    expected: 'a quoted string',
    found: ')',
    message: /after `,` in the IN list of `source`/,
  },
  { query: "source IN ('a' 'b')", position: 15, expected: '`,` or `)`', found: "'b'" },
  { query: "source IN ('a'", position: 14, expected: '`,` or `)`', found: 'end of query' },
  { query: "source IN ('a', 5)", position: 16, expected: 'a quoted string', found: '5' },
  { query: "source NOT 'a'", position: 11, expected: 'IN', found: "'a'" },
  { query: "source NOT = 'a'", position: 11, expected: 'IN', found: '=' },
  // Stray characters.
  { query: "source = 'a' @", position: 13, expected: 'AND, OR or end of query', found: '@' },
  {
    query: "source = 'a' && risk_score > 1",
    position: 13,
    expected: 'AND, OR or end of query',
    found: '&',
    message: /use AND/,
  },
  {
    query: "source = 'a' || risk_score > 1",
    position: 13,
    expected: 'AND, OR or end of query',
    found: '|',
    message: /use OR/,
  },
  { query: "source = 'a';", position: 12, expected: 'AND, OR or end of query', found: ';' },
  {
    query: "source = 'a'\u0007",
    position: 12,
    expected: 'AND, OR or end of query',
    found: 'U+0007',
  },
  {
    query: "source = 'a' \uD800",
    position: 13,
    expected: 'AND, OR or end of query',
    found: 'U+D800',
    message: /unpaired/,
  },
  // Strings.
  {
    query: 'source = "okta"',
    position: 9,
    expected: 'a quoted string',
    found: '"',
    message: /single quotes/,
  },
  {
    query: 'source = okta',
    position: 9,
    expected: 'a quoted string',
    found: 'okta',
    message: /single quotes/,
  },
  {
    query: "source = 'okta",
    position: 9,
    expected: 'a quoted string',
    found: "'okta",
    message: /unterminated string/,
  },
  {
    query: "source = 'a''",
    position: 9,
    expected: 'a quoted string',
    found: "'a''",
    message: /unterminated string/,
  },
  {
    query: "source = 'a' AND id = 'b",
    position: 22,
    expected: 'a quoted string',
    found: "'b",
    message: /unterminated/,
  },
  {
    query: "source = 'a\u0000b'",
    position: 9,
    expected: 'a quoted string',
    found: "'a\u0000b'",
    message: /U\+0000/,
  },
  {
    query: "source = '\uD800'",
    position: 9,
    expected: 'a quoted string',
    found: "'\uD800'",
    message: /unpaired UTF-16 surrogate/,
  },
  // Numbers.
  {
    query: "risk_score = '5'",
    position: 13,
    expected: 'a number',
    found: "'5'",
    message: /numbers are not quoted/,
  },
  {
    query: 'risk_score = 1.',
    position: 13,
    expected: 'a number',
    found: '1.',
    message: /malformed number/,
  },
  { query: 'risk_score = .5', position: 13, expected: 'a number', found: '.' },
  {
    query: 'risk_score = 1e',
    position: 13,
    expected: 'a number',
    found: '1e',
    message: /malformed number/,
  },
  { query: 'risk_score = 0x1F', position: 13, expected: 'a number', found: '0x1F' },
  { query: 'risk_score = 5abc', position: 13, expected: 'a number', found: '5abc' },
  { query: 'risk_score = NaN', position: 13, expected: 'a number', found: 'NaN' },
  { query: 'risk_score = Infinity', position: 13, expected: 'a number', found: 'Infinity' },
  { query: 'risk_score = -Infinity', position: 13, expected: 'a number', found: '-' },
  {
    query: 'risk_score = 1e309',
    position: 13,
    expected: 'a finite number',
    found: '1e309',
    message: /out of range/,
  },
  { query: 'risk_score = - 5', position: 13, expected: 'a number', found: '-' },
  { query: 'risk_score = true', position: 13, expected: 'a number', found: 'true' },
  // Booleans.
  {
    query: 'allowlisted > true',
    position: 12,
    expected: EXPECTED_BOOLEAN_OPERATOR,
    found: '>',
    message:
      'expected =, !=, IN or NOT IN after `allowlisted` at column 13, found `>` (the boolean field allowlisted cannot be compared with >)',
  },
  {
    query: 'high_prevalence <= false',
    position: 16,
    expected: EXPECTED_BOOLEAN_OPERATOR,
    found: '<=',
  },
  {
    query: 'allowlisted',
    position: 11,
    expected: EXPECTED_BOOLEAN_OPERATOR,
    found: 'end of query',
  },
  {
    query: "allowlisted = 'true'",
    position: 14,
    expected: 'TRUE or FALSE',
    found: "'true'",
    message: /not quoted/,
  },
  { query: 'allowlisted = 1', position: 14, expected: 'TRUE or FALSE', found: '1' },
  { query: 'allowlisted = yes', position: 14, expected: 'TRUE or FALSE', found: 'yes' },
  { query: 'allowlisted IN (true, 0)', position: 22, expected: 'TRUE or FALSE', found: '0' },
  // Timestamps.
  {
    query: 'happened > 2024-01-01',
    position: 11,
    column: 12,
    expected: EXPECTED_TIMESTAMP,
    found: '2024',
    message:
      /^expected a quoted ISO 8601 UTC timestamp after `happened >` at column 12, found `2024`/,
  },
  {
    query: 'happened = 1704067200000',
    position: 11,
    expected: EXPECTED_TIMESTAMP,
    found: '1704067200000',
  },
  { query: 'happened = now', position: 11, expected: EXPECTED_TIMESTAMP, found: 'now' },
  {
    query: "happened = '2024-02-30T00:00:00Z'",
    position: 11,
    expected: EXPECTED_VALID_TIMESTAMP,
    found: "'2024-02-30T00:00:00Z'",
    message:
      "invalid timestamp `'2024-02-30T00:00:00Z'` after `happened =` at column 12: 2024-02-30 is not a calendar date",
  },
  {
    query: "happened = '2023-02-29'",
    position: 11,
    expected: EXPECTED_VALID_TIMESTAMP,
    found: "'2023-02-29'",
    message: /not a calendar date/,
  },
  {
    query: "happened = '2024-04-31T00:00:00Z'",
    position: 11,
    expected: EXPECTED_VALID_TIMESTAMP,
    found: "'2024-04-31T00:00:00Z'",
    message: /not a calendar date/,
  },
  {
    query: "happened = '2024-01-01T10:00:00+02:00'",
    position: 11,
    expected: EXPECTED_VALID_TIMESTAMP,
    found: "'2024-01-01T10:00:00+02:00'",
    message: /the offset \+02:00 is not UTC/,
  },
  {
    query: "happened = '2024-01-01T10:00:00'",
    position: 11,
    expected: EXPECTED_VALID_TIMESTAMP,
    found: "'2024-01-01T10:00:00'",
    message: /time zone is missing/,
  },
  {
    query: "happened IN ('2024-01-01', '2024-01-01T00:00:00-05:00')",
    position: 27,
    expected: EXPECTED_VALID_TIMESTAMP,
    found: "'2024-01-01T00:00:00-05:00'",
    message: /after `,` in the IN list of `happened`.*-05:00 is not UTC/,
  },
  // Unknown fields.
  {
    query: 'foo = 1',
    position: 0,
    expected: EXPECTED_FIELD,
    found: 'foo',
    message:
      'unknown field `foo` at column 1; known fields: id, employee_email, happened, risk_score, source, allowlisted, high_prevalence',
  },
  {
    query: "Source = 'a'",
    position: 0,
    expected: EXPECTED_FIELD,
    found: 'Source',
    message: /unknown field `Source` at column 1 \(did you mean `source`\?\)/,
  },
  {
    query: 'RISK_SCORE > 1',
    position: 0,
    expected: EXPECTED_FIELD,
    found: 'RISK_SCORE',
    message: /did you mean `risk_score`/,
  },
  {
    query: 'risk_scor > 1',
    position: 0,
    expected: EXPECTED_FIELD,
    found: 'risk_scor',
    message: /did you mean `risk_score`/,
  },
  {
    query: "sourcé = 'a'",
    position: 0,
    expected: EXPECTED_FIELD,
    found: 'sourcé',
    message: /did you mean `source`/,
  },
  {
    query: "source = 'a' AND x = 1",
    position: 17,
    expected: EXPECTED_FIELD,
    found: 'x',
    message: /^unknown field `x` at column 18; known fields/,
  },
  // Lines and columns: columns count code points, lines end at \n, \r\n or \r.
  {
    query: "source = 'a'\n  AND foo = 1",
    position: 19,
    line: 2,
    column: 7,
    expected: EXPECTED_FIELD,
    found: 'foo',
    message: /at line 2, column 7/,
  },
  {
    query: "source = 'a'\r\nAND\r\nfoo = 1",
    position: 19,
    line: 3,
    column: 1,
    expected: EXPECTED_FIELD,
    found: 'foo',
  },
  {
    query: "source = 'a'\rAND foo = 1",
    position: 17,
    line: 2,
    column: 5,
    expected: EXPECTED_FIELD,
    found: 'foo',
  },
  {
    query: "source = '😀' AND x = 1",
    position: 18,
    column: 18,
    expected: EXPECTED_FIELD,
    found: 'x',
  },
  {
    query: "source = 'e\u0301' AND x = 1",
    position: 18,
    column: 19,
    expected: EXPECTED_FIELD,
    found: 'x',
  },
  {
    query: "source = '𝔘𝔫𝔦' 𝔘",
    position: 18,
    column: 16,
    expected: 'AND, OR or end of query',
    found: '𝔘',
  },
];

describe('parseQuery: invalid queries', () => {
  it.each(INVALID.map((c) => [c.query, c] as const))('%j', (_query, c) => {
    const error = parseError(c.query);
    expect(error).toBeInstanceOf(QueryError);
    expect(error.code).toBe('invalid_query');
    expect({
      position: error.position,
      expected: error.expected,
      found: error.found,
    }).toEqual({ position: c.position, expected: c.expected, found: c.found });
    if (c.column !== undefined) expect(error.column).toBe(c.column);
    expect(error.line).toBe(c.line ?? 1);
    if (c.line === undefined && c.column === undefined) {
      // Single-line ASCII queries: the column is the position + 1.
      expect(error.column).toBe(c.position + 1);
      expect(error.message).toContain(`at column ${c.position + 1}`);
    }
    if (typeof c.message === 'string') expect(error.message).toBe(c.message);
    else if (c.message) expect(error.message).toMatch(c.message);
  });

  it('reports the first error in text order, even if a later token is malformed', () => {
    expect(parseError("foo = 'unterminated").found).toBe('foo');
    expect(parseError("AND source = 'x").found).toBe('AND');
  });

  it('does not suggest unrelated fields', () => {
    expect(parseError('a = 1').message).not.toMatch(/did you mean/);
    expect(parseError('severity = 1').message).not.toMatch(/did you mean/);
  });

  it('rejects non-string input with a QueryError', () => {
    const error = (() => {
      try {
        parseQuery(undefined as unknown as string);
      } catch (e) {
        return e as QueryError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(QueryError);
    expect(error?.found).toBe('undefined');
  });

  it('serializes to a plain object for API responses', () => {
    expect(JSON.parse(JSON.stringify(parseError('risk_score > x')))).toEqual({
      code: 'invalid_query',
      message: 'expected a number after `risk_score >` at column 14, found `x`',
      position: 13,
      line: 1,
      column: 14,
      expected: 'a number',
      found: 'x',
    });
  });

  it('shortens long tokens in found', () => {
    const error = parseError(`source = '${'x'.repeat(100)}`);
    expect(error.found).toBe(`'${'x'.repeat(39)}…`);
  });
});

describe('parseQuery: limits', () => {
  const { maxBytes, maxConditions, maxNestingDepth, maxBooleanDepth } = QUERY_LIMITS;

  it('documents the limits', () => {
    expect(QUERY_LIMITS).toEqual({
      maxBytes: 8192,
      maxConditions: 256,
      maxNestingDepth: 64,
      maxBooleanDepth: 24,
    });
  });

  describe(`size: ${maxBytes} bytes of UTF-8`, () => {
    const sized = (bytes: number, filler = 'x'): string => {
      const prefix = "source = '";
      const fillerBytes = new TextEncoder().encode(filler).length;
      const available = bytes - prefix.length - 1;
      const count = Math.floor(available / fillerBytes);
      const text = `${prefix}${'x'.repeat(available - count * fillerBytes)}${filler.repeat(count)}'`;
      expect(new TextEncoder().encode(text).length).toBe(bytes);
      return text;
    };

    it('accepts exactly the limit', () => {
      expect(() => parseQuery(sized(maxBytes))).not.toThrow();
      expect(() => parseQuery(`${sized(maxBytes - 3)}   `)).not.toThrow();
    });

    it('rejects one byte over the limit, pointing at the first byte over', () => {
      const error = parseError(sized(maxBytes + 1));
      expect(error).toMatchObject({
        position: maxBytes,
        column: maxBytes + 1,
        expected: 'a query of at most 8192 bytes (UTF-8)',
        found: '8193 bytes',
      });
      expect(error.message).toBe(
        'the query is too long: 8193 bytes (UTF-8), at most 8192 are allowed; ' +
          'the limit is exceeded at column 8193',
      );
    });

    it('counts multi-byte characters in bytes, not characters', () => {
      // 'é' is 2 bytes: 8192 bytes but only 4102 characters.
      expect(() => parseQuery(sized(maxBytes, 'é'))).not.toThrow();
      expect(sized(maxBytes, 'é')).toHaveLength(4102);
      expect(parseError(sized(maxBytes + 1, 'é')).found).toBe('8193 bytes');
      // '😀' is 4 bytes; a trailing space makes 8193.
      const text = `${"source = '"}${'😀'.repeat(2045)}'  `;
      expect(new TextEncoder().encode(text).length).toBe(8193);
      expect(parseError(text)).toMatchObject({ position: text.length - 1, found: '8193 bytes' });
      // An emoji straddling the limit is reported at its start.
      const straddle = `${'x'.repeat(maxBytes - 2)}😀`;
      expect(parseError(straddle)).toMatchObject({ position: maxBytes - 2, found: '8194 bytes' });
    });

    it('rejects huge queries quickly and without crashing', () => {
      expect(parseError('('.repeat(1_000_000)).found).toBe('1000000 bytes');
    });
  });

  describe(`conditions: at most ${maxConditions}, an IN list counts as one`, () => {
    const conditions = (n: number): string =>
      Array.from({ length: n }, () => 'risk_score = 1').join(' OR ');

    it('accepts exactly the limit', () => {
      const ast = parseQuery(conditions(maxConditions));
      expect(ast.kind === 'or' && ast.children.length).toBe(maxConditions);
    });

    it('counts an IN list as one condition', () => {
      const values = Array.from({ length: 300 }, (_, i) => String(i)).join(', ');
      expect(() =>
        parseQuery(`${conditions(maxConditions - 1)} OR risk_score IN (${values})`),
      ).not.toThrow();
    });

    it('rejects one condition more, at its start', () => {
      const error = parseError(conditions(maxConditions + 1));
      const position = maxConditions * 'risk_score = 1 OR '.length;
      expect(error).toMatchObject({
        position,
        column: position + 1,
        expected: 'at most 256 conditions',
        found: 'risk_score',
      });
      expect(error.message).toBe(
        `too many conditions: condition 257 starts at column ${position + 1}, ` +
          'at most 256 are allowed (an IN list counts as one)',
      );
    });
  });

  describe(`nesting: at most ${maxNestingDepth} parentheses/NOT, ${maxBooleanDepth} AND/OR/NOT levels`, () => {
    it('accepts parentheses up to the limit', () => {
      const depth = maxNestingDepth;
      const ast = parseQuery(`${'('.repeat(depth)}risk_score = 1${')'.repeat(depth)}`);
      expect(ast).toEqual(cmp('risk_score', '=', num(1)));
    });

    it('rejects one parenthesis more, at that parenthesis', () => {
      const depth = maxNestingDepth + 1;
      const error = parseError(`${'('.repeat(depth)}risk_score = 1${')'.repeat(depth)}`);
      expect(error).toMatchObject({
        position: maxNestingDepth,
        column: maxNestingDepth + 1,
        expected: 'at most 64 nested parentheses or NOT',
        found: '(',
      });
      expect(error.message).toBe(
        'nested too deeply at column 65, found `(`: ' +
          'at most 64 levels of parentheses and NOT are allowed',
      );
    });

    it(`accepts ${maxBooleanDepth} nested NOTs and rejects one more`, () => {
      expect(() => parseQuery(`${'NOT '.repeat(maxBooleanDepth)}risk_score = 1`)).not.toThrow();
      const error = parseError(`${'NOT '.repeat(maxBooleanDepth + 1)}risk_score = 1`);
      expect(error).toMatchObject({
        position: 0,
        expected: 'at most 24 nested levels of AND, OR and NOT',
        found: 'NOT',
      });
      expect(error.message).toBe(
        'the expression starting at column 1 nests AND, OR and NOT 25 levels deep; ' +
          'at most 24 are allowed',
      );
    });

    it('counts alternating AND/OR levels', () => {
      // Level k wraps level k+1 in parentheses: a AND (a OR (a AND (...)))
      const nested = (levels: number): string => {
        let text = 'risk_score = 1';
        for (let level = levels; level >= 1; level--) {
          text = `risk_score = 1 ${level % 2 ? 'AND' : 'OR'} (${text})`;
        }
        return text;
      };
      // `levels` groups plus the innermost single condition: depth = levels.
      expect(() => parseQuery(nested(maxBooleanDepth))).not.toThrow();
      const error = parseError(nested(maxBooleanDepth + 1));
      expect(error.expected).toBe('at most 24 nested levels of AND, OR and NOT');
      expect(error.position).toBe(0);
    });

    it('reports NOT beyond the parenthesis/NOT limit where it starts', () => {
      const error = parseError(`${'NOT '.repeat(maxNestingDepth + 1)}risk_score = 1`);
      expect(error).toMatchObject({ position: 4 * maxNestingDepth, found: 'NOT' });
    });

    it('never overflows the stack on deep input within the size limit', () => {
      for (const text of [
        '('.repeat(8000),
        'NOT '.repeat(2000),
        `${'('.repeat(4000)}risk_score = 1${')'.repeat(4000)}`,
        'risk_score = 1 AND '.repeat(400),
      ]) {
        expect(parseError(text)).toBeInstanceOf(QueryError);
      }
    });
  });
});
