import { QUERYABLE_FIELD_NAMES, type FieldName } from './event-fields';
import { formatUtcTimestamp } from './parse-utc-timestamp';
import {
  type ComparisonOperator,
  type ConditionNode,
  type Literal,
  type QueryNode,
} from './query-ast';

export interface CompileToSqlOptions {
  /**
   * Column expression per field (default: the field name). Inserted verbatim, so only trusted
   * configuration belongs here: a (qualified) identifier such as `e.risk_score` or `"Risk"`.
   */
  readonly columns?: Partial<Record<FieldName, string>>;
  /** Number of the first placeholder (default 1), to append to an existing parameter list. */
  readonly placeholderStart?: number;
}

export type SqlParam = string | number | boolean;

export interface SqlWhere {
  /** A PostgreSQL boolean expression; compound expressions are parenthesized. */
  readonly where: string;
  /** Values for `$placeholderStart`, `$placeholderStart + 1`, … in order. */
  readonly params: SqlParam[];
}

const SQL_OPERATORS: Readonly<Record<ComparisonOperator, string>> = {
  '=': '=',
  '!=': '<>',
  '<': '<',
  '>': '>',
  '<=': '<=',
  '>=': '>=',
};

const SQL_TYPES: Readonly<Record<Literal['type'], string>> = {
  string: 'text',
  number: 'double precision',
  boolean: 'boolean',
  timestamp: 'timestamptz',
};

const IDENTIFIER =
  /^(?:[A-Za-z_][A-Za-z0-9_$]*|"(?:[^"]|"")+")(?:\.(?:[A-Za-z_][A-Za-z0-9_$]*|"(?:[^"]|"")+"))*$/;

/**
 * Compiles a query to a parameterized PostgreSQL WHERE expression with the same semantics as
 * `compileToElasticsearch` and `evaluateQuery`. Literals are never interpolated: each one is a
 * `$n` placeholder with an explicit cast (`::text`, `::double precision`, `::boolean`,
 * `::timestamptz`).
 *
 * Column expectations (all NOT NULL, which makes `<>` the exact negation of `=`):
 * - `employee_email` text holding `normalizeEmployeeEmail(email)` (the literal is lowercased the
 *   same way), so it is compared directly;
 * - `happened` timestamptz holding millisecond-precision values; the parameter is the canonical
 *   ISO string `YYYY-MM-DDTHH:MM:SS.sssZ`, which PostgreSQL parses exactly;
 * - `risk_score` double precision; booleans boolean; `id`, `source` text.
 *
 * String ordering (`<`, `>`, `<=`, `>=`) uses `COLLATE "C"`, i.e. UTF-8 byte order, which is
 * what Elasticsearch keyword ranges use (an index on a column with another collation cannot serve
 * these comparisons). Equality needs no collation: deterministic collations compare bytes.
 * An empty query compiles to `TRUE`.
 */
export function compileToSql(ast: QueryNode, options: CompileToSqlOptions = {}): SqlWhere {
  const start = options.placeholderStart ?? 1;
  if (!Number.isSafeInteger(start) || start < 1) {
    throw new RangeError(`placeholderStart must be a positive integer, got ${String(start)}`);
  }
  const columns = {} as Record<FieldName, string>;
  for (const field of QUERYABLE_FIELD_NAMES) {
    const column = options.columns?.[field] ?? field;
    if (!IDENTIFIER.test(column)) {
      throw new TypeError(`column for ${field} is not a plain SQL identifier: ${column}`);
    }
    columns[field] = column;
  }
  const params: SqlParam[] = [];
  const placeholder = (literal: Literal): string => {
    params.push(literal.type === 'timestamp' ? formatUtcTimestamp(literal.value) : literal.value);
    return `$${start + params.length - 1}::${SQL_TYPES[literal.type]}`;
  };

  const compile = (node: ConditionNode): string => {
    switch (node.kind) {
      case 'and':
        return `(${node.children.map(compile).join(' AND ')})`;
      case 'or':
        return `(${node.children.map(compile).join(' OR ')})`;
      case 'not': {
        const inner = compile(node.child);
        return node.child.kind === 'and' || node.child.kind === 'or'
          ? `NOT ${inner}`
          : `NOT (${inner})`;
      }
      case 'comparison': {
        const column = columns[node.field];
        const ordered = node.op !== '=' && node.op !== '!=' && node.value.type === 'string';
        const left = ordered ? `${column} COLLATE "C"` : column;
        return `${left} ${SQL_OPERATORS[node.op]} ${placeholder(node.value)}`;
      }
      case 'in':
        return `${columns[node.field]} IN (${node.values.map(placeholder).join(', ')})`;
    }
  };

  return { where: ast.kind === 'match_all' ? 'TRUE' : compile(ast), params };
}
