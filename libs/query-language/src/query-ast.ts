import { type FieldName } from './event-fields';

/**
 * The AST produced by `parseQuery` and consumed by the printer, the compilers and the evaluator.
 *
 * Normalization rules (so that `parseQuery(printQuery(ast))` deep-equals `ast`):
 * - Parentheses leave no node; `a AND b AND c` is one `and` node with three children, while
 *   `(a AND b) AND c` keeps the inner group as a nested `and` child (nothing is flattened
 *   implicitly; the printer parenthesizes such a child again).
 * - `and`/`or` nodes have at least two children; `match_all` only appears as the whole query.
 * - `field NOT IN (…)` parses to `not` around an `in` node.
 * - `employee_email` string literals are already lowercased (`normalizeEmployeeEmail`).
 * - Numbers are finite and never `-0`.
 * - Timestamps keep the epoch milliseconds and the text between the quotes as written.
 */
export type QueryNode = AndNode | OrNode | NotNode | ComparisonNode | InNode | MatchAllNode;

/** Every node except `match_all`, which only stands for a whole (empty) query. */
export type ConditionNode = Exclude<QueryNode, MatchAllNode>;

export type ComparisonOperator = '=' | '!=' | '<' | '>' | '<=' | '>=';

export const COMPARISON_OPERATORS: readonly ComparisonOperator[] = Object.freeze([
  '=',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
]);

export interface StringLiteral {
  readonly type: 'string';
  readonly value: string;
}

export interface NumberLiteral {
  readonly type: 'number';
  readonly value: number;
}

export interface BooleanLiteral {
  readonly type: 'boolean';
  readonly value: boolean;
}

export interface TimestampLiteral {
  readonly type: 'timestamp';
  /** Milliseconds since 1970-01-01T00:00:00Z. */
  readonly value: number;
  /** The timestamp exactly as written between the quotes, e.g. `2024-01-01T00:00:00Z`. */
  readonly text: string;
}

export type Literal = StringLiteral | NumberLiteral | BooleanLiteral | TimestampLiteral;

export interface AndNode {
  readonly kind: 'and';
  readonly children: readonly [ConditionNode, ConditionNode, ...ConditionNode[]];
}

export interface OrNode {
  readonly kind: 'or';
  readonly children: readonly [ConditionNode, ConditionNode, ...ConditionNode[]];
}

export interface NotNode {
  readonly kind: 'not';
  readonly child: ConditionNode;
}

export interface ComparisonNode {
  readonly kind: 'comparison';
  readonly field: FieldName;
  readonly op: ComparisonOperator;
  readonly value: Literal;
}

export interface InNode {
  readonly kind: 'in';
  readonly field: FieldName;
  readonly values: readonly [Literal, ...Literal[]];
}

/** The empty (or whitespace-only) query: matches every event. */
export interface MatchAllNode {
  readonly kind: 'match_all';
}
