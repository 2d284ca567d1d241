import { type FieldName } from './event-fields';
import { type ConditionNode, type Literal, type QueryNode } from './query-ast';

export type ElasticsearchTermValue = string | number | boolean;

export interface ElasticsearchRange {
  gt?: ElasticsearchTermValue;
  gte?: ElasticsearchTermValue;
  lt?: ElasticsearchTermValue;
  lte?: ElasticsearchTermValue;
  format?: 'epoch_millis';
}

export interface ElasticsearchBool {
  filter?: ElasticsearchQuery[];
  should?: ElasticsearchQuery[];
  minimum_should_match?: number;
  must_not?: ElasticsearchQuery[];
}

/** The subset of the Elasticsearch query DSL that the compiler emits. */
export type ElasticsearchQuery =
  | { match_all: Record<string, never> }
  | { bool: ElasticsearchBool }
  | { term: Partial<Record<FieldName, ElasticsearchTermValue>> }
  | { terms: Partial<Record<FieldName, ElasticsearchTermValue[]>> }
  | { range: Partial<Record<FieldName, ElasticsearchRange>> };

/**
 * Compiles a query to the Elasticsearch query DSL, in filter context (no scoring):
 * - empty query → `{ match_all: {} }`; anything else is wrapped in `{ bool: { filter: [...] } }`
 *   (a top-level AND puts its children directly into that filter);
 * - AND → `bool.filter`, OR → `bool.should` + `minimum_should_match: 1`, NOT → `bool.must_not`;
 * - `=` → `term` (`range` gte/lte for `happened`), `!=` → `must_not` of that;
 * - `<`, `>`, `<=`, `>=` → `range` (keyword ranges compare UTF-8 bytes);
 * - IN → `terms` (for `happened`, a `should` of exact ranges).
 *
 * Mapping assumed: `id`, `source`, `employee_email` keyword (`employee_email` with a lowercase
 * normalizer), `happened` date (millisecond resolution), `risk_score` double, booleans boolean.
 * Timestamps are sent as epoch milliseconds with `format: 'epoch_millis'`, exact to the millisecond.
 */
export function compileToElasticsearch(ast: QueryNode): ElasticsearchQuery {
  if (ast.kind === 'match_all') return { match_all: {} };
  if (ast.kind === 'and') return { bool: { filter: ast.children.map(compileNode) } };
  return { bool: { filter: [compileNode(ast)] } };
}

function compileNode(node: ConditionNode): ElasticsearchQuery {
  switch (node.kind) {
    case 'and':
      return { bool: { filter: node.children.map(compileNode) } };
    case 'or':
      return { bool: { should: node.children.map(compileNode), minimum_should_match: 1 } };
    case 'not':
      return { bool: { must_not: [compileNode(node.child)] } };
    case 'comparison': {
      const { field, value } = node;
      switch (node.op) {
        case '=':
          return equals(field, value);
        case '!=':
          return { bool: { must_not: [equals(field, value)] } };
        case '<':
          return range(field, 'lt', value);
        case '>':
          return range(field, 'gt', value);
        case '<=':
          return range(field, 'lte', value);
        case '>=':
          return range(field, 'gte', value);
      }
      break;
    }
    case 'in':
      if (node.values.every((value) => value.type !== 'timestamp')) {
        return { terms: { [node.field]: node.values.map((value) => value.value) } };
      }
      return {
        bool: {
          should: node.values.map((value) => equals(node.field, value)),
          minimum_should_match: 1,
        },
      };
  }
}

function equals(field: FieldName, literal: Literal): ElasticsearchQuery {
  if (literal.type === 'timestamp') {
    return {
      range: { [field]: { gte: literal.value, lte: literal.value, format: 'epoch_millis' } },
    };
  }
  return { term: { [field]: literal.value } };
}

function range(
  field: FieldName,
  bound: 'gt' | 'gte' | 'lt' | 'lte',
  literal: Literal,
): ElasticsearchQuery {
  const spec: ElasticsearchRange =
    literal.type === 'timestamp'
      ? { [bound]: literal.value, format: 'epoch_millis' }
      : { [bound]: literal.value };
  return { range: { [field]: spec } };
}
