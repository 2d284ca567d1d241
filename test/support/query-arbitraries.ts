import fc from 'fast-check';
import {
  COMPARISON_OPERATORS,
  QUERYABLE_FIELDS,
  QUERYABLE_FIELD_NAMES,
  type ComparisonNode,
  type ConditionNode,
  type FieldName,
  type InNode,
  type Literal,
  type QueryNode,
} from '@vigil/query-language';

/** Literal values to draw from, per field type: the real values of a data set and near misses. */
export interface ValuePools {
  id: readonly string[];
  employee_email: readonly string[];
  source: readonly string[];
  risk_score: readonly number[];
  happened: readonly number[];
}

const mod = (n: number, m: number): number => ((n % m) + m) % m;

/** A timestamp literal in one of the spellings the language accepts. */
function timestampLiteral(millis: number, style: number): Literal {
  const iso = (value: number) => new Date(value).toISOString();
  switch (style) {
    case 0:
      return { type: 'timestamp', value: millis, text: iso(millis) };
    case 1: {
      const value = millis - mod(millis, 1000);
      return { type: 'timestamp', value, text: iso(value).replace('.000Z', 'Z') };
    }
    case 2:
      return { type: 'timestamp', value: millis, text: iso(millis).replace('Z', '+00:00') };
    default: {
      const value = millis - mod(millis, 86_400_000);
      return { type: 'timestamp', value, text: iso(value).slice(0, 10) };
    }
  }
}

function literalOf(field: FieldName, pools: ValuePools): fc.Arbitrary<Literal> {
  switch (field) {
    case 'id':
    case 'employee_email':
    case 'source':
      return fc.constantFrom(...pools[field]).map((value): Literal => ({ type: 'string', value }));
    case 'risk_score':
      return fc
        .oneof(
          fc.constantFrom(...pools.risk_score),
          fc.constantFrom(...pools.risk_score).map((n) => Math.round((n + 0.05) * 1000) / 1000),
          fc.integer({ min: -1, max: 11 }),
        )
        .map((value): Literal => ({ type: 'number', value: value === 0 ? 0 : value }));
    case 'happened':
      return fc
        .tuple(
          fc.constantFrom(...pools.happened),
          fc.constantFrom(-1, 0, 0, 0, 1),
          fc.integer({ min: 0, max: 3 }),
        )
        .map(([millis, shift, style]) => timestampLiteral(millis + shift, style));
    case 'allowlisted':
    case 'high_prevalence':
      return fc.boolean().map((value): Literal => ({ type: 'boolean', value }));
  }
}

function leafOf(pools: ValuePools): fc.Arbitrary<ComparisonNode | InNode> {
  const field = fc.constantFrom(...QUERYABLE_FIELD_NAMES);
  const comparison = field.chain((f) =>
    fc
      .tuple(
        fc.constantFrom(
          ...(QUERYABLE_FIELDS[f] === 'boolean' ? (['=', '!='] as const) : COMPARISON_OPERATORS),
        ),
        literalOf(f, pools),
      )
      .map(([op, value]): ComparisonNode => ({ kind: 'comparison', field: f, op, value })),
  );
  const inList = field.chain((f) =>
    fc.array(literalOf(f, pools), { minLength: 1, maxLength: 4 }).map((values): InNode => ({
      kind: 'in',
      field: f,
      values: values as [Literal, ...Literal[]],
    })),
  );
  return fc.oneof({ weight: 3, arbitrary: comparison }, { weight: 1, arbitrary: inList });
}

/**
 * Valid query ASTs (print them with printQuery) over the given pools: comparisons with every
 * operator, IN lists, NOT, and AND/OR nested a few levels, plus the empty query now and then.
 */
export function queryOver(pools: ValuePools, maxDepth = 3): fc.Arbitrary<QueryNode> {
  const leaf = leafOf(pools);
  const condition = fc.letrec<{ node: ConditionNode }>((tie) => ({
    node: fc.oneof(
      { maxDepth, depthIdentifier: 'query' },
      leaf,
      fc
        .array(tie('node'), { minLength: 2, maxLength: 3, depthIdentifier: 'query' })
        .map((children): ConditionNode => ({
          kind: 'and',
          children: children as [ConditionNode, ConditionNode, ...ConditionNode[]],
        })),
      fc
        .array(tie('node'), { minLength: 2, maxLength: 3, depthIdentifier: 'query' })
        .map((children): ConditionNode => ({
          kind: 'or',
          children: children as [ConditionNode, ConditionNode, ...ConditionNode[]],
        })),
      tie('node').map((child): ConditionNode => ({ kind: 'not', child })),
    ),
  })).node;
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<QueryNode>({ kind: 'match_all' }) },
    { weight: 30, arbitrary: condition },
  );
}
