import { parseQuery } from './parse-query';
import { printLiteral, printQuery } from './print-query';
import { type ConditionNode, type QueryNode } from './query-ast';

const src = (value: string): ConditionNode => ({
  kind: 'comparison',
  field: 'source',
  op: '=',
  value: { type: 'string', value },
});
const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(src);

describe('printQuery', () => {
  it.each<[string, QueryNode, string]>([
    ['match_all', { kind: 'match_all' }, ''],
    [
      'AND of ORs',
      { kind: 'and', children: [{ kind: 'or', children: [a, b] }, c] },
      "(source = 'a' OR source = 'b') AND source = 'c'",
    ],
    [
      'OR of ANDs needs no parentheses',
      { kind: 'or', children: [{ kind: 'and', children: [a, b] }, c] },
      "source = 'a' AND source = 'b' OR source = 'c'",
    ],
    [
      'nested OR in OR keeps its group',
      { kind: 'or', children: [a, { kind: 'or', children: [b, c] }] },
      "source = 'a' OR (source = 'b' OR source = 'c')",
    ],
    [
      'nested AND in AND keeps its group',
      { kind: 'and', children: [{ kind: 'and', children: [a, b] }, c] },
      "(source = 'a' AND source = 'b') AND source = 'c'",
    ],
    [
      'NOT of a group',
      { kind: 'not', child: { kind: 'and', children: [a, b] } },
      "NOT (source = 'a' AND source = 'b')",
    ],
    ['NOT NOT', { kind: 'not', child: { kind: 'not', child: a } }, "NOT NOT source = 'a'"],
    [
      'NOT inside AND',
      { kind: 'and', children: [{ kind: 'not', child: { kind: 'or', children: [a, b] } }, d] },
      "NOT (source = 'a' OR source = 'b') AND source = 'd'",
    ],
    [
      'IN',
      {
        kind: 'in',
        field: 'risk_score',
        values: [
          { type: 'number', value: 1 },
          { type: 'number', value: -2.5 },
        ],
      },
      'risk_score IN (1, -2.5)',
    ],
    [
      'NOT IN',
      {
        kind: 'not',
        child: { kind: 'in', field: 'allowlisted', values: [{ type: 'boolean', value: true }] },
      },
      'NOT allowlisted IN (true)',
    ],
  ])('%s', (_name, ast, text) => {
    expect(printQuery(ast)).toBe(text);
    expect(parseQuery(text)).toEqual(ast);
  });

  it('prints literals canonically', () => {
    expect(printLiteral({ type: 'string', value: "it's ''quoted''" })).toBe(
      "'it''s ''''quoted'''''",
    );
    expect(printLiteral({ type: 'number', value: 1e21 })).toBe('1e+21');
    expect(printLiteral({ type: 'number', value: 5e-324 })).toBe('5e-324');
    expect(printLiteral({ type: 'number', value: 0.1 })).toBe('0.1');
    expect(printLiteral({ type: 'boolean', value: false })).toBe('false');
    expect(printLiteral({ type: 'timestamp', value: 0, text: '1970-01-01' })).toBe("'1970-01-01'");
  });

  it('normalizes spacing and keyword case', () => {
    expect(printQuery(parseQuery("  source='a'   or  NOT(risk_score>1)and id in('x' ,'y')"))).toBe(
      "source = 'a' OR NOT risk_score > 1 AND id IN ('x', 'y')",
    );
  });
});
