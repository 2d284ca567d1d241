import { compileToElasticsearch, type ElasticsearchQuery } from './compile-to-elasticsearch';
import { parseQuery } from './parse-query';
import { QUERY_LIMITS } from './query-limits';

const es = (text: string): unknown => compileToElasticsearch(parseQuery(text));
const JAN_1 = Date.UTC(2024, 0, 1);

describe('compileToElasticsearch', () => {
  it('matches everything for the empty query', () => {
    expect(es('')).toEqual({ match_all: {} });
    expect(es('   ')).toEqual({ match_all: {} });
  });

  it('compiles the spec examples in filter context', () => {
    expect(es("happened > '2024-01-01T00:00:00.000Z'")).toEqual({
      bool: { filter: [{ range: { happened: { gt: JAN_1, format: 'epoch_millis' } } }] },
    });
    expect(es('risk_score > 5')).toEqual({
      bool: { filter: [{ range: { risk_score: { gt: 5 } } }] },
    });
    expect(es("source = 'okta' AND allowlisted = false")).toEqual({
      bool: { filter: [{ term: { source: 'okta' } }, { term: { allowlisted: false } }] },
    });
  });

  it('compiles equality and inequality', () => {
    expect(es("id = 'abc'")).toEqual({ bool: { filter: [{ term: { id: 'abc' } }] } });
    expect(es("id != 'abc'")).toEqual({
      bool: { filter: [{ bool: { must_not: [{ term: { id: 'abc' } }] } }] },
    });
    expect(es('risk_score = 2.5')).toEqual({ bool: { filter: [{ term: { risk_score: 2.5 } }] } });
    expect(es('high_prevalence != true')).toEqual({
      bool: { filter: [{ bool: { must_not: [{ term: { high_prevalence: true } }] } }] },
    });
  });

  it('compiles timestamp equality as an exact millisecond range', () => {
    expect(es("happened = '2024-01-01T00:00:00.001Z'")).toEqual({
      bool: {
        filter: [
          { range: { happened: { gte: JAN_1 + 1, lte: JAN_1 + 1, format: 'epoch_millis' } } },
        ],
      },
    });
    expect(es("happened != '2024-01-01'")).toEqual({
      bool: {
        filter: [
          {
            bool: {
              must_not: [
                { range: { happened: { gte: JAN_1, lte: JAN_1, format: 'epoch_millis' } } },
              ],
            },
          },
        ],
      },
    });
  });

  it('compiles ordering operators to ranges (keyword ranges included)', () => {
    expect(
      es("source < 'm' AND risk_score >= -1 AND happened <= '2024-01-01T00:00:00+00:00'"),
    ).toEqual({
      bool: {
        filter: [
          { range: { source: { lt: 'm' } } },
          { range: { risk_score: { gte: -1 } } },
          { range: { happened: { lte: JAN_1, format: 'epoch_millis' } } },
        ],
      },
    });
  });

  it('lowercases employee_email literals', () => {
    expect(es("employee_email = 'Bob@Example.com'")).toEqual({
      bool: { filter: [{ term: { employee_email: 'bob@example.com' } }] },
    });
  });

  it('compiles IN to terms, and timestamps IN to a should of exact ranges', () => {
    expect(es("source IN ('okta', 'gsuite')")).toEqual({
      bool: { filter: [{ terms: { source: ['okta', 'gsuite'] } }] },
    });
    expect(es("happened IN ('2024-01-01', '2024-01-01T00:00:00.002Z')")).toEqual({
      bool: {
        filter: [
          {
            bool: {
              should: [
                { range: { happened: { gte: JAN_1, lte: JAN_1, format: 'epoch_millis' } } },
                { range: { happened: { gte: JAN_1 + 2, lte: JAN_1 + 2, format: 'epoch_millis' } } },
              ],
              minimum_should_match: 1,
            },
          },
        ],
      },
    });
    expect(es("source NOT IN ('okta')")).toEqual({
      bool: { filter: [{ bool: { must_not: [{ terms: { source: ['okta'] } }] } }] },
    });
  });

  it('compiles OR, NOT and nesting', () => {
    expect(es("source = 'a' OR NOT (risk_score > 5 AND allowlisted = true)")).toEqual({
      bool: {
        filter: [
          {
            bool: {
              should: [
                { term: { source: 'a' } },
                {
                  bool: {
                    must_not: [
                      {
                        bool: {
                          filter: [
                            { range: { risk_score: { gt: 5 } } },
                            { term: { allowlisted: true } },
                          ],
                        },
                      },
                    ],
                  },
                },
              ],
              minimum_should_match: 1,
            },
          },
        ],
      },
    });
  });

  it("stays within Elasticsearch's default nested depth (30) at the parser's limits", () => {
    const depth = (query: ElasticsearchQuery): number => {
      if (!('bool' in query)) return 1;
      const { filter = [], should = [], must_not = [] } = query.bool;
      return 1 + Math.max(...[...filter, ...should, ...must_not].map(depth));
    };
    const max = QUERY_LIMITS.maxBooleanDepth;
    const nots = `${'NOT '.repeat(max)}happened != '2024-01-01'`;
    let alternating = "happened IN ('2024-01-01')";
    for (let level = max; level >= 1; level--) {
      alternating = `risk_score = 1 ${level % 2 ? 'OR' : 'AND'} (${alternating})`;
    }
    expect(depth(compileToElasticsearch(parseQuery(nots)))).toBe(max + 3);
    expect(depth(compileToElasticsearch(parseQuery(alternating)))).toBeLessThanOrEqual(max + 3);
    expect(max + 3).toBeLessThanOrEqual(30);
  });
});
