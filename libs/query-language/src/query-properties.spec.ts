import fc from 'fast-check';
import { compileToElasticsearch, type ElasticsearchQuery } from './compile-to-elasticsearch';
import { compileToSql } from './compile-to-sql';
import { evaluateQuery, type QueryableEvent } from './evaluate-query';
import {
  QUERYABLE_FIELDS,
  QUERYABLE_FIELD_NAMES,
  normalizeEmployeeEmail,
  type FieldName,
} from './event-fields';
import { parseQuery } from './parse-query';
import { printQuery } from './print-query';
import {
  COMPARISON_OPERATORS,
  type ComparisonNode,
  type ConditionNode,
  type InNode,
  type Literal,
  type QueryNode,
} from './query-ast';
import { QueryError, lineAndColumn } from './query-error';
import { QUERY_LIMITS } from './query-limits';

// ---------------------------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------------------------

const MIN_MILLIS = Date.parse('0001-01-01T00:00:00.000Z');
const MAX_MILLIS = Date.parse('9999-12-31T23:59:59.999Z');
const mod = (n: number, m: number): number => ((n % m) + m) % m;

/** A valid timestamp literal in one of the accepted spellings. */
const timestampFrom = (millis: number, style: number): Literal => {
  switch (style) {
    case 0:
      return { type: 'timestamp', value: millis, text: new Date(millis).toISOString() };
    case 1: {
      const value = millis - mod(millis, 1000);
      return {
        type: 'timestamp',
        value,
        text: new Date(value).toISOString().replace('.000Z', 'Z'),
      };
    }
    case 2:
      return {
        type: 'timestamp',
        value: millis,
        text: new Date(millis).toISOString().replace('Z', '+00:00'),
      };
    case 3: {
      const value = millis - mod(millis, 86_400_000);
      return { type: 'timestamp', value, text: new Date(value).toISOString().slice(0, 10) };
    }
    default: {
      const value = millis - mod(millis, 100);
      return {
        type: 'timestamp',
        value,
        text: new Date(value).toISOString().replace(/(\.\d)00Z$/, '$1Z'),
      };
    }
  }
};

interface LiteralPools {
  string: fc.Arbitrary<string>;
  number: fc.Arbitrary<number>;
  millis: fc.Arbitrary<number>;
}

/** Wide pools: any valid literal (for round trips and structural properties). */
const WIDE: LiteralPools = {
  string: fc
    .oneof(
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.string({
        unit: fc.constantFrom("'", "''", 'a', 'Z', ' ', 'é', 'İ', '😀', '\n', '\u0301', '\uFFFF'),
        maxLength: 6,
      }),
    )
    .map((s) => s.split('\u0000').join('')),
  number: fc
    .oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: -100, max: 100 }))
    .map((n) => (n === 0 ? 0 : n)),
  millis: fc.integer({ min: MIN_MILLIS, max: MAX_MILLIS }),
};

const BASE = Date.UTC(2024, 0, 1);
const STRING_POOL = ['', 'a', 'A', 'b', 'okta', "O'Brien", 'é', '😀', '\uFFFF', 'İx'];
const NUMBER_POOL = [-1, 0, 0.5, 5, 10];
const MILLIS_POOL = [BASE - 1, BASE, BASE + 1, BASE + 86_400_000];

/** Narrow pools shared with the generated events, so that comparisons often hit. */
const NARROW: LiteralPools = {
  string: fc.constantFrom(...STRING_POOL),
  number: fc.constantFrom(...NUMBER_POOL),
  millis: fc.constantFrom(...MILLIS_POOL),
};

function literalArb(field: FieldName, pools: LiteralPools): fc.Arbitrary<Literal> {
  switch (QUERYABLE_FIELDS[field]) {
    case 'string':
      return pools.string.map((value): Literal => ({
        type: 'string',
        value: field === 'employee_email' ? normalizeEmployeeEmail(value) : value,
      }));
    case 'number':
      return pools.number.map((value): Literal => ({ type: 'number', value }));
    case 'boolean':
      return fc.boolean().map((value): Literal => ({ type: 'boolean', value }));
    case 'timestamp':
      return fc
        .tuple(pools.millis, fc.integer({ min: 0, max: 4 }))
        .map(([millis, style]) => timestampFrom(millis, style));
  }
}

function leafArb(pools: LiteralPools): fc.Arbitrary<ComparisonNode | InNode> {
  const field = fc.constantFrom(...QUERYABLE_FIELD_NAMES);
  const comparison = field.chain((f) =>
    fc
      .tuple(
        fc.constantFrom(
          ...(QUERYABLE_FIELDS[f] === 'boolean' ? (['=', '!='] as const) : COMPARISON_OPERATORS),
        ),
        literalArb(f, pools),
      )
      .map(([op, value]): ComparisonNode => ({ kind: 'comparison', field: f, op, value })),
  );
  const inList = field.chain((f) =>
    fc.array(literalArb(f, pools), { minLength: 1, maxLength: 4 }).map((values): InNode => ({
      kind: 'in',
      field: f,
      values: values as [Literal, ...Literal[]],
    })),
  );
  return fc.oneof({ weight: 3, arbitrary: comparison }, { weight: 1, arbitrary: inList });
}

function conditionArb(pools: LiteralPools, maxDepth = 4): fc.Arbitrary<ConditionNode> {
  const leaf = leafArb(pools);
  return fc.letrec<{
    node: ConditionNode;
    and: ConditionNode;
    or: ConditionNode;
    not: ConditionNode;
  }>((tie) => ({
    node: fc.oneof({ maxDepth, depthIdentifier: 'query' }, leaf, tie('and'), tie('or'), tie('not')),
    and: fc
      .array(tie('node'), { minLength: 2, maxLength: 3, depthIdentifier: 'query' })
      .map((children): ConditionNode => ({
        kind: 'and',
        children: children as [ConditionNode, ConditionNode, ...ConditionNode[]],
      })),
    or: fc
      .array(tie('node'), { minLength: 2, maxLength: 3, depthIdentifier: 'query' })
      .map((children): ConditionNode => ({
        kind: 'or',
        children: children as [ConditionNode, ConditionNode, ...ConditionNode[]],
      })),
    not: tie('node').map((child): ConditionNode => ({ kind: 'not', child })),
  })).node;
}

const utf8Length = (text: string): number => new TextEncoder().encode(text).length;

const countConditions = (node: QueryNode): number => {
  switch (node.kind) {
    case 'and':
    case 'or':
      return node.children.reduce((sum, child) => sum + countConditions(child), 0);
    case 'not':
      return countConditions(node.child);
    case 'match_all':
      return 0;
    default:
      return 1;
  }
};

/** ASTs that `parseQuery` can produce: within the size and condition limits. */
function queryArb(pools: LiteralPools): fc.Arbitrary<QueryNode> {
  return fc
    .oneof(
      { weight: 1, arbitrary: fc.constant<QueryNode>({ kind: 'match_all' }) },
      { weight: 20, arbitrary: conditionArb(pools) },
    )
    .filter(
      (ast) =>
        countConditions(ast) <= QUERY_LIMITS.maxConditions &&
        utf8Length(printQuery(ast)) <= QUERY_LIMITS.maxBytes,
    );
}

const eventArb: fc.Arbitrary<QueryableEvent> = fc.record({
  id: fc.constantFrom(...STRING_POOL),
  employee_email: fc.constantFrom(...STRING_POOL, 'OKTA', 'İX'),
  happened: fc.oneof(
    fc.constantFrom(...MILLIS_POOL),
    fc.constantFrom(...MILLIS_POOL).map((millis) => new Date(millis)),
  ),
  risk_score: fc.constantFrom(...NUMBER_POOL),
  source: fc.constantFrom(...STRING_POOL),
  allowlisted: fc.boolean(),
  high_prevalence: fc.boolean(),
});

// ---------------------------------------------------------------------------------------------
// Independent oracles
// ---------------------------------------------------------------------------------------------

const toMillis = (happened: QueryableEvent['happened']): number =>
  happened instanceof Date ? happened.getTime() : Number(happened);

/** Compares strings by their UTF-8 bytes (what Elasticsearch keyword ranges do). */
function compareUtf8(a: string, b: string): number {
  const [x, y] = [new TextEncoder().encode(a), new TextEncoder().encode(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** The document as Elasticsearch indexes it (employee_email through the lowercase normalizer). */
function indexed(event: QueryableEvent, field: FieldName): string | number | boolean {
  if (field === 'happened') return toMillis(event.happened);
  if (field === 'employee_email') return normalizeEmployeeEmail(event.employee_email);
  return event[field];
}

function compareValues(a: string | number | boolean, b: string | number | boolean): number {
  if (typeof a === 'string' && typeof b === 'string') return compareUtf8(a, b);
  return Number(a) - Number(b);
}

/** A minimal interpreter of the Elasticsearch DSL subset the compiler emits. */
function esMatches(query: ElasticsearchQuery, event: QueryableEvent): boolean {
  if ('match_all' in query) return true;
  if ('bool' in query) {
    const { filter = [], should, must_not = [], minimum_should_match } = query.bool;
    if (should !== undefined) expect(minimum_should_match).toBe(1);
    return (
      filter.every((q) => esMatches(q, event)) &&
      must_not.every((q) => !esMatches(q, event)) &&
      (should === undefined || should.some((q) => esMatches(q, event)))
    );
  }
  const entry = (object: object): [FieldName, unknown] => {
    const entries = Object.entries(object);
    expect(entries).toHaveLength(1);
    return entries[0] as [FieldName, unknown];
  };
  if ('term' in query) {
    const [field, value] = entry(query.term);
    return compareValues(indexed(event, field), value as string) === 0;
  }
  if ('terms' in query) {
    const [field, values] = entry(query.terms);
    return (values as string[]).some((value) => compareValues(indexed(event, field), value) === 0);
  }
  const [field, range] = entry(query.range);
  const { gt, gte, lt, lte, format } = range as Record<string, string | number | undefined>;
  if (field === 'happened') expect(format).toBe('epoch_millis');
  const actual = indexed(event, field);
  return (
    (gt === undefined || compareValues(actual, gt) > 0) &&
    (gte === undefined || compareValues(actual, gte) >= 0) &&
    (lt === undefined || compareValues(actual, lt) < 0) &&
    (lte === undefined || compareValues(actual, lte) <= 0)
  );
}

function esDepth(query: ElasticsearchQuery): number {
  if (!('bool' in query)) return 1;
  const { filter = [], should = [], must_not = [] } = query.bool;
  return 1 + Math.max(0, ...[...filter, ...should, ...must_not].map(esDepth));
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

const RUNS = { numRuns: 300 };

describe('property: print → parse round trip', () => {
  it('parses the printed text of any valid AST back to an equal AST', () => {
    fc.assert(
      fc.property(queryArb(WIDE), (ast) => {
        const text = printQuery(ast);
        expect(parseQuery(text)).toEqual(ast);
        expect(printQuery(parseQuery(text))).toBe(text);
      }),
      RUNS,
    );
  });
});

const SOUP_TOKENS = [
  ...QUERYABLE_FIELD_NAMES,
  'AND',
  'and',
  'OR',
  'Or',
  'NOT',
  'not',
  'IN',
  'in',
  'TRUE',
  'false',
  '=',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  '==',
  '<>',
  '!',
  '(',
  ')',
  ',',
  '(',
  ')',
  "'x'",
  "'O''Brien'",
  "'",
  "''",
  "'2024-01-01T00:00:00Z'",
  "'2024-02-30'",
  "'2024-01-01T00:00:00+02:00'",
  '5',
  '-2.5',
  '1e3',
  '1e999',
  '1.',
  '0x1',
  'NaN',
  'foo',
  'Source',
  '"x"',
  '@',
  '&&',
  '😀',
  'é',
  '\u0000',
  '\uD800',
  '\n',
  '\r\n',
  '\t',
  '\u00a0',
];

const soupArb = fc
  .tuple(
    fc.array(fc.constantFrom(...SOUP_TOKENS), { maxLength: 25 }),
    fc.constantFrom(' ', '', '  '),
  )
  .map(([tokens, separator]) => tokens.join(separator));

/** A valid query with one random character inserted, deleted or replaced. */
const mutatedArb = fc
  .tuple(
    queryArb(WIDE),
    fc.nat(),
    fc.constantFrom('insert', 'delete', 'replace'),
    fc.constantFrom(...SOUP_TOKENS),
  )
  .map(([ast, at, how, token]) => {
    const text = printQuery(ast);
    const i = text.length === 0 ? 0 : at % text.length;
    if (how === 'delete') return text.slice(0, i) + text.slice(i + 1);
    return text.slice(0, i) + token + text.slice(how === 'replace' ? i + 1 : i);
  });

function checkParsesOrFailsCleanly(text: string): void {
  let ast: QueryNode;
  try {
    ast = parseQuery(text);
  } catch (error) {
    expect(error).toBeInstanceOf(QueryError);
    const e = error as QueryError;
    expect(e.code).toBe('invalid_query');
    expect(e.position).toBeGreaterThanOrEqual(0);
    expect(e.position).toBeLessThanOrEqual(text.length);
    expect(lineAndColumn(text, e.position)).toEqual({ line: e.line, column: e.column });
    expect(e.message.length).toBeGreaterThan(0);
    expect(e.expected.length).toBeGreaterThan(0);
    expect(e.found.length).toBeGreaterThan(0);
    return;
  }
  // Whatever parses prints canonically, round trips and compiles.
  expect(parseQuery(printQuery(ast))).toEqual(ast);
  compileToElasticsearch(ast);
  compileToSql(ast);
}

describe('property: parseQuery throws nothing but QueryError', () => {
  it('on random Unicode strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), checkParsesOrFailsCleanly),
      RUNS,
    );
  });

  it('on random strings with lone surrogates', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 40 }).map((s) => `${s}\uDC00${s}`),
        checkParsesOrFailsCleanly,
      ),
      { numRuns: 50 },
    );
  });

  it('on token soups', () => {
    fc.assert(fc.property(soupArb, checkParsesOrFailsCleanly), { numRuns: 1000 });
  });

  it('on valid queries with one mutation', () => {
    fc.assert(fc.property(mutatedArb, checkParsesOrFailsCleanly), RUNS);
  });
});

describe('property: evaluateQuery semantics', () => {
  const narrowQuery = conditionArb(NARROW, 3);
  const narrowLeaf = leafArb(NARROW);

  /** A reference evaluator written independently (UTF-8 byte order, indexed values). */
  function reference(node: QueryNode, event: QueryableEvent): boolean {
    switch (node.kind) {
      case 'match_all':
        return true;
      case 'and':
        return node.children.map((child) => reference(child, event)).every(Boolean);
      case 'or':
        return node.children.map((child) => reference(child, event)).some(Boolean);
      case 'not':
        return !reference(node.child, event);
      case 'in':
        return node.values.some(
          (value) => compareValues(indexed(event, node.field), value.value) === 0,
        );
      case 'comparison': {
        const order = compareValues(indexed(event, node.field), node.value.value);
        return {
          '=': order === 0,
          '!=': order !== 0,
          '<': order < 0,
          '>': order > 0,
          '<=': order <= 0,
          '>=': order >= 0,
        }[node.op];
      }
    }
  }

  it('agrees with an independent reference evaluator', () => {
    fc.assert(
      fc.property(narrowQuery, eventArb, (ast, event) => {
        expect(evaluateQuery(ast, event)).toBe(reference(ast, event));
      }),
      RUNS,
    );
  });

  it('agrees with the compiled Elasticsearch query (interpreted)', () => {
    fc.assert(
      fc.property(narrowQuery, eventArb, (ast, event) => {
        expect(esMatches(compileToElasticsearch(ast), event)).toBe(evaluateQuery(ast, event));
      }),
      RUNS,
    );
  });

  it('gives the same result after print → parse', () => {
    fc.assert(
      fc.property(narrowQuery, eventArb, (ast, event) => {
        expect(evaluateQuery(parseQuery(printQuery(ast)), event)).toBe(evaluateQuery(ast, event));
      }),
      RUNS,
    );
  });

  it('satisfies NOT NOT x ≡ x and De Morgan', () => {
    fc.assert(
      fc.property(narrowQuery, narrowQuery, eventArb, (x, y, event) => {
        const ev = (node: ConditionNode): boolean => evaluateQuery(node, event);
        const not = (child: ConditionNode): ConditionNode => ({ kind: 'not', child });
        expect(ev(not(not(x)))).toBe(ev(x));
        expect(ev(not({ kind: 'and', children: [x, y] }))).toBe(
          ev({ kind: 'or', children: [not(x), not(y)] }),
        );
        expect(ev(not({ kind: 'or', children: [x, y] }))).toBe(
          ev({ kind: 'and', children: [not(x), not(y)] }),
        );
        expect(ev({ kind: 'and', children: [x, y] })).toBe(ev(x) && ev(y));
        expect(ev({ kind: 'or', children: [x, y] })).toBe(ev(x) || ev(y));
      }),
      RUNS,
    );
  });

  it('relates the comparison operators and IN', () => {
    fc.assert(
      fc.property(narrowLeaf, eventArb, (leaf, event) => {
        const ev = (node: ConditionNode): boolean => evaluateQuery(node, event);
        if (leaf.kind === 'in') {
          const equalities = leaf.values.map((value): ConditionNode => ({
            kind: 'comparison',
            field: leaf.field,
            op: '=',
            value,
          }));
          expect(ev(leaf)).toBe(equalities.some(ev));
          return;
        }
        const with_ = (op: ComparisonNode['op']): boolean => ev({ ...leaf, op });
        expect(with_('!=')).toBe(!with_('='));
        if (QUERYABLE_FIELDS[leaf.field] === 'boolean') return;
        expect(with_('<=')).toBe(with_('<') || with_('='));
        expect(with_('>=')).toBe(with_('>') || with_('='));
        expect(with_('>')).toBe(!with_('<='));
        expect([with_('<'), with_('='), with_('>')].filter(Boolean)).toHaveLength(1);
      }),
      { numRuns: 500 },
    );
  });
});

describe('property: compilers', () => {
  it('compileToSql has exactly one param per placeholder, numbered in order, and no inline literals', () => {
    fc.assert(
      fc.property(queryArb(WIDE), fc.integer({ min: 1, max: 1000 }), (ast, start) => {
        const { where, params } = compileToSql(ast, { placeholderStart: start });
        const placeholders = [
          ...where.matchAll(/\$(\d+)::(text|double precision|boolean|timestamptz)/g),
        ];
        expect(placeholders.map((m) => Number(m[1]))).toEqual(params.map((_, i) => start + i));
        expect([...where.matchAll(/\$/g)]).toHaveLength(params.length);
        expect(where).not.toContain("'");
        placeholders.forEach(([, n, cast]) => {
          const param = params[Number(n) - start];
          const expectedType = {
            text: 'string',
            'double precision': 'number',
            boolean: 'boolean',
            timestamptz: 'string',
          }[cast];
          expect(typeof param).toBe(expectedType);
        });
      }),
      RUNS,
    );
  });

  it('compileToElasticsearch output is plain JSON and at most maxBooleanDepth + 3 levels deep', () => {
    fc.assert(
      fc.property(queryArb(WIDE), (ast) => {
        const query = compileToElasticsearch(ast);
        expect(JSON.parse(JSON.stringify(query))).toEqual(query);
        expect(esDepth(query)).toBeLessThanOrEqual(QUERY_LIMITS.maxBooleanDepth + 3);
      }),
      RUNS,
    );
  });
});
