import {
  QUERYABLE_FIELD_NAMES,
  QUERYABLE_FIELDS,
  isQueryableField,
  normalizeEmployeeEmail,
  type FieldName,
  type FieldType,
} from './event-fields';
import { Lexer, keywordOf, type Keyword, type Token } from './lexer';
import { parseUtcTimestamp } from './parse-utc-timestamp';
import {
  type ComparisonOperator,
  type ConditionNode,
  type Literal,
  type QueryNode,
} from './query-ast';
import { QueryError, lineAndColumn } from './query-error';
import { QUERY_LIMITS } from './query-limits';

/**
 * Parses and type-checks a query. An empty or whitespace-only query is `{ kind: 'match_all' }`.
 *
 * Grammar (keywords are case-insensitive, field names are lowercase):
 *
 *     query      := <empty> | or
 *     or         := and ( OR and )*
 *     and        := unary ( AND unary )*
 *     unary      := NOT unary | '(' or ')' | condition
 *     condition  := field op literal | field [NOT] IN '(' literal ( ',' literal )* ')'
 *     op         := '=' | '!=' | '<' | '>' | '<=' | '>='
 *
 * @throws QueryError for every problem with the query (and nothing else).
 */
export function parseQuery(text: string): QueryNode {
  if (typeof text !== 'string') {
    const found = text === null ? 'null' : typeof text;
    throw new QueryError(`the query must be a string, found ${found}`, {
      position: 0,
      line: 1,
      column: 1,
      expected: 'a query string',
      found,
    });
  }
  checkSize(text);
  return new Parser(text).parseQuery();
}

interface Parsed {
  readonly node: ConditionNode;
  /** Nesting of AND / OR / NOT nodes (0 for a single condition). */
  readonly depth: number;
  /** The first token of the expression. */
  readonly start: Token;
}

interface Failure {
  readonly expected: string;
  /** Where, in words, e.g. "after `happened >`". */
  readonly where?: string;
  readonly hint?: string;
  /** Defaults to the current token. */
  readonly at?: Token;
  /** Replaces the default "expected … found …" message (location is inserted by `fail`). */
  readonly message?: (location: string, found: string) => string;
}

const ORDERING_OPERATORS: ReadonlySet<string> = new Set(['<', '>', '<=', '>=']);
const EXPECTED_FIELD = `a field name (one of ${QUERYABLE_FIELD_NAMES.join(', ')})`;
const EXPECTED_LITERAL: Readonly<Record<FieldType, string>> = {
  string: 'a quoted string',
  number: 'a number',
  boolean: 'TRUE or FALSE',
  timestamp: 'a quoted ISO 8601 UTC timestamp',
};

class Parser {
  private readonly lexer: Lexer;
  private token: Token;
  private previous: Token | undefined;
  private nesting = 0;
  private conditions = 0;

  constructor(private readonly text: string) {
    this.lexer = new Lexer(text);
    this.token = this.lexer.next();
  }

  parseQuery(): QueryNode {
    if (this.current().kind === 'eof') return { kind: 'match_all' };
    const parsed = this.parseOr();
    if (this.current().kind !== 'eof') {
      this.fail({
        expected: 'AND, OR or end of query',
        hint: this.current().kind === 'rparen' ? 'this `)` has no matching `(`' : undefined,
      });
    }
    return parsed.node;
  }

  private parseOr(): Parsed {
    const first = this.parseAnd();
    if (!this.atKeyword('OR')) return first;
    const children: ConditionNode[] = [first.node];
    let depth = first.depth;
    while (this.atKeyword('OR')) {
      this.advance();
      const next = this.parseAnd();
      children.push(next.node);
      depth = Math.max(depth, next.depth);
    }
    return this.group('or', children, depth + 1, first.start);
  }

  private parseAnd(): Parsed {
    const first = this.parseUnary();
    if (!this.atKeyword('AND')) return first;
    const children: ConditionNode[] = [first.node];
    let depth = first.depth;
    while (this.atKeyword('AND')) {
      this.advance();
      const next = this.parseUnary();
      children.push(next.node);
      depth = Math.max(depth, next.depth);
    }
    return this.group('and', children, depth + 1, first.start);
  }

  private group(
    kind: 'and' | 'or',
    children: ConditionNode[],
    depth: number,
    start: Token,
  ): Parsed {
    this.checkBooleanDepth(depth, start);
    const [first, second, ...rest] = children;
    return { node: { kind, children: [first, second, ...rest] }, depth, start };
  }

  private parseUnary(): Parsed {
    const token = this.token;
    if (this.atKeyword('NOT')) {
      this.enter(token);
      this.advance();
      const child = this.parseUnary();
      this.nesting -= 1;
      return this.negate(child, token);
    }
    if (token.kind === 'lparen') {
      this.enter(token);
      this.advance();
      const inner = this.parseOr();
      if (this.current().kind !== 'rparen') {
        this.fail({
          expected: 'AND, OR or `)`',
          hint: `to close the \`(\` at ${this.location(token.start)}`,
        });
      }
      this.advance();
      this.nesting -= 1;
      return { node: inner.node, depth: inner.depth, start: token };
    }
    if (token.kind === 'word' && keywordOf(token) === undefined) return this.parseCondition();
    let hint: string | undefined;
    if (token.kind === 'string') hint = 'field names are not quoted';
    else if (this.previous === undefined && keywordOf(token) !== undefined) {
      hint = 'a query cannot start with a keyword';
    }
    return this.fail({
      expected: 'a condition (a field name, NOT or `(`)',
      where: this.previous ? `after \`${describe(this.previous)}\`` : undefined,
      hint,
    });
  }

  private negate(child: Parsed, notToken: Token): Parsed {
    const depth = child.depth + 1;
    this.checkBooleanDepth(depth, notToken);
    return { node: { kind: 'not', child: child.node }, depth, start: notToken };
  }

  private parseCondition(): Parsed {
    const fieldToken = this.token;
    const name = fieldToken.text;
    if (!isQueryableField(name)) return this.unknownField(fieldToken);
    this.conditions += 1;
    if (this.conditions > QUERY_LIMITS.maxConditions) {
      const max = QUERY_LIMITS.maxConditions;
      this.fail({
        expected: `at most ${max} conditions`,
        message: (location) =>
          `too many conditions: condition ${this.conditions} starts at ${location}, ` +
          `at most ${max} are allowed (an IN list counts as one)`,
      });
    }
    this.advance();
    const type = QUERYABLE_FIELDS[name];
    const operatorToken = this.token;
    const allowed =
      type === 'boolean'
        ? '=, !=, IN or NOT IN'
        : 'a comparison operator (=, !=, <, >, <=, >=, IN or NOT IN)';

    if (operatorToken.kind === 'operator') {
      const op = operatorToken.text as ComparisonOperator;
      if (type === 'boolean' && ORDERING_OPERATORS.has(op)) {
        this.fail({
          expected: allowed,
          where: `after \`${name}\``,
          hint: `the boolean field ${name} cannot be compared with ${op}`,
        });
      }
      this.advance();
      const value = this.parseLiteral(name, type, `after \`${name} ${op}\``);
      return { node: { kind: 'comparison', field: name, op, value }, depth: 0, start: fieldToken };
    }
    if (this.atKeyword('IN')) {
      this.advance();
      const values = this.parseInList(name, type, `${name} IN`);
      return { node: { kind: 'in', field: name, values }, depth: 0, start: fieldToken };
    }
    if (this.atKeyword('NOT')) {
      const notToken = this.advance();
      if (!this.atKeyword('IN')) this.fail({ expected: 'IN', where: `after \`${name} NOT\`` });
      this.advance();
      const values = this.parseInList(name, type, `${name} NOT IN`);
      const inNode: Parsed = {
        node: { kind: 'in', field: name, values },
        depth: 0,
        start: fieldToken,
      };
      return { ...this.negate(inNode, notToken), start: fieldToken };
    }
    return this.fail({ expected: allowed, where: `after \`${name}\`` });
  }

  private parseInList(field: FieldName, type: FieldType, label: string): [Literal, ...Literal[]] {
    if (this.current().kind !== 'lparen') {
      this.fail({
        expected: '`(`',
        where: `after \`${label}\``,
        hint: 'IN takes a parenthesized list of values',
      });
    }
    this.advance();
    const first = this.parseLiteral(field, type, `after \`${label} (\``, true);
    const values: [Literal, ...Literal[]] = [first];
    for (;;) {
      if (this.current().kind === 'rparen') {
        this.advance();
        return values;
      }
      if (this.current().kind !== 'comma') {
        this.fail({ expected: '`,` or `)`', where: `in the IN list of \`${field}\`` });
      }
      this.advance();
      values.push(this.parseLiteral(field, type, `after \`,\` in the IN list of \`${field}\``));
    }
  }

  private parseLiteral(
    field: FieldName,
    type: FieldType,
    where: string,
    firstInList = false,
  ): Literal {
    const token = this.token;
    const expected = EXPECTED_LITERAL[type];
    let hint: string | undefined;
    switch (type) {
      case 'string':
        if (token.kind === 'string') {
          this.advance();
          const value =
            field === 'employee_email' ? normalizeEmployeeEmail(token.value) : token.value;
          return { type: 'string', value };
        }
        if (token.kind === 'word' || token.kind === 'number') {
          hint = 'string values are written in single quotes';
        }
        break;
      case 'number':
        if (token.kind === 'number') {
          const value = Number(token.text);
          if (!Number.isFinite(value)) {
            this.fail({ expected: 'a finite number', where, hint: 'the number is out of range' });
          }
          this.advance();
          return { type: 'number', value: value === 0 ? 0 : value };
        }
        if (token.kind === 'string') hint = 'numbers are not quoted';
        break;
      case 'boolean': {
        const keyword = keywordOf(token);
        if (keyword === 'TRUE' || keyword === 'FALSE') {
          this.advance();
          return { type: 'boolean', value: keyword === 'TRUE' };
        }
        if (token.kind === 'string') hint = 'TRUE and FALSE are not quoted';
        break;
      }
      case 'timestamp':
        if (token.kind === 'string') {
          const parsed = parseUtcTimestamp(token.value);
          if (!parsed.ok) {
            this.fail({
              expected: `${expected} (YYYY-MM-DDTHH:MM:SS[.sss]Z)`,
              message: (location, found) =>
                `invalid timestamp ${found} ${where} at ${location}: ${parsed.reason}`,
            });
          }
          this.advance();
          return { type: 'timestamp', value: parsed.millis, text: token.value };
        }
        if (token.kind === 'number' || token.kind === 'word') {
          hint = "timestamps are quoted, e.g. '2024-01-01T00:00:00Z'";
        }
        break;
      default:
        break;
    }
    if (firstInList && token.kind === 'rparen') hint = 'an IN list needs at least one value';
    return this.fail({ expected, where, hint });
  }

  private unknownField(token: Token): never {
    const name = token.text;
    const suggestion = suggestField(name);
    const known = QUERYABLE_FIELD_NAMES.join(', ');
    return this.fail({
      expected: EXPECTED_FIELD,
      message: (location, found) =>
        `unknown field ${found} at ${location}` +
        (suggestion ? ` (did you mean \`${suggestion}\`?)` : '') +
        `; known fields: ${known}`,
    });
  }

  private enter(token: Token): void {
    this.nesting += 1;
    if (this.nesting > QUERY_LIMITS.maxNestingDepth) {
      const max = QUERY_LIMITS.maxNestingDepth;
      this.fail({
        expected: `at most ${max} nested parentheses or NOT`,
        message: (location, found) =>
          `nested too deeply at ${location}, found ${found}: ` +
          `at most ${max} levels of parentheses and NOT are allowed`,
        at: token,
      });
    }
  }

  private checkBooleanDepth(depth: number, start: Token): void {
    const max = QUERY_LIMITS.maxBooleanDepth;
    if (depth <= max) return;
    this.fail({
      expected: `at most ${max} nested levels of AND, OR and NOT`,
      message: (location) =>
        `the expression starting at ${location} nests AND, OR and NOT ${depth} levels deep; ` +
        `at most ${max} are allowed`,
      at: start,
    });
  }

  /** The current token (a method, so that TypeScript does not narrow it across `advance()`). */
  private current(): Token {
    return this.token;
  }

  private atKeyword(keyword: Keyword): boolean {
    return keywordOf(this.token) === keyword;
  }

  private advance(): Token {
    const token = this.token;
    this.previous = token;
    this.token = this.lexer.next();
    return token;
  }

  private location(position: number): string {
    const { line, column } = lineAndColumn(this.text, position);
    return /[\r\n]/.test(this.text) ? `line ${line}, column ${column}` : `column ${column}`;
  }

  private fail(failure: Failure): never {
    const token = failure.at ?? this.token;
    const { line, column } = lineAndColumn(this.text, token.start);
    const location = this.location(token.start);
    const found = describe(token);
    const foundText = token.kind === 'eof' ? found : `\`${found}\``;
    const hint = token.problem ?? failure.hint;
    const message = failure.message
      ? failure.message(location, foundText)
      : `expected ${failure.expected}${failure.where ? ` ${failure.where}` : ''} at ${location}, ` +
        `found ${foundText}${hint ? ` (${hint})` : ''}`;
    throw new QueryError(message, {
      position: token.start,
      line,
      column,
      expected: failure.expected,
      found,
    });
  }
}

const MAX_FOUND_CODE_POINTS = 40;

/** How a token is shown in `found` and messages: its text, shortened, invisible characters named. */
function describe(token: Token): string {
  if (token.kind === 'eof') return 'end of query';
  const codePoints = [...token.text];
  if (codePoints.length === 1 && /[\p{C}\p{Z}]/u.test(token.text)) {
    return `U+${token.text.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return codePoints.length > MAX_FOUND_CODE_POINTS
    ? `${codePoints.slice(0, MAX_FOUND_CODE_POINTS).join('')}…`
    : token.text;
}

function suggestField(name: string): FieldName | undefined {
  const lower = name.toLowerCase();
  let best: FieldName | undefined;
  // Case differences are free; allow 1 typo in short names and 2 in longer ones.
  let bestDistance = lower.length >= 6 ? 3 : 2;
  for (const field of QUERYABLE_FIELD_NAMES) {
    const distance = field === lower ? 0 : editDistance(lower, field);
    if (distance < bestDistance && distance < lower.length) {
      best = field;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2 || a.length > 64) return Number.POSITIVE_INFINITY;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

function checkSize(text: string): void {
  const max = QUERY_LIMITS.maxBytes;
  // Each UTF-16 code unit is at most 3 UTF-8 bytes (a surrogate pair, 2 units, is 4 bytes).
  if (text.length * 3 <= max) return;
  let bytes = 0;
  let overflowAt = -1;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    let width: number;
    if (unit < 0x80) width = 1;
    else if (unit < 0x800) width = 2;
    else if (
      unit >= 0xd800 &&
      unit <= 0xdbff &&
      text.charCodeAt(i + 1) >= 0xdc00 &&
      text.charCodeAt(i + 1) <= 0xdfff
    ) {
      width = 4;
    } else width = 3; // BMP character, or an unpaired surrogate (encoded as U+FFFD)
    if (overflowAt === -1 && bytes + width > max) overflowAt = i;
    bytes += width;
    if (width === 4) i += 1;
  }
  if (overflowAt === -1) return;
  const { line, column } = lineAndColumn(text, overflowAt);
  throw new QueryError(
    `the query is too long: ${bytes} bytes (UTF-8), at most ${max} are allowed; ` +
      `the limit is exceeded at ${/[\r\n]/.test(text) ? `line ${line}, ` : ''}column ${column}`,
    {
      position: overflowAt,
      line,
      column,
      expected: `a query of at most ${max} bytes (UTF-8)`,
      found: `${bytes} bytes`,
    },
  );
}
