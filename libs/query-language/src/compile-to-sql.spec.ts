import { compileToSql } from './compile-to-sql';
import { parseQuery } from './parse-query';

const sql = (text: string, options?: Parameters<typeof compileToSql>[1]) =>
  compileToSql(parseQuery(text), options);

describe('compileToSql', () => {
  it('compiles the empty query to TRUE', () => {
    expect(sql('')).toEqual({ where: 'TRUE', params: [] });
  });

  it('compiles the spec examples with placeholders and casts', () => {
    expect(sql("happened > '2024-01-01T00:00:00Z'")).toEqual({
      where: 'happened > $1::timestamptz',
      params: ['2024-01-01T00:00:00.000Z'],
    });
    expect(sql('risk_score > 5')).toEqual({
      where: 'risk_score > $1::double precision',
      params: [5],
    });
    expect(sql("source = 'okta' AND allowlisted = false")).toEqual({
      where: '(source = $1::text AND allowlisted = $2::boolean)',
      params: ['okta', false],
    });
  });

  it('never interpolates literals', () => {
    const { where, params } = sql("id = 'x''); DROP TABLE events; --'");
    expect(where).toBe('id = $1::text');
    expect(params).toEqual(["x'); DROP TABLE events; --"]);
  });

  it('sends timestamps as canonical UTC ISO strings (exact milliseconds)', () => {
    expect(sql("happened IN ('2024-01-01', '2024-01-01T00:00:00.7+00:00')")).toEqual({
      where: 'happened IN ($1::timestamptz, $2::timestamptz)',
      params: ['2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.700Z'],
    });
  });

  it('orders strings bytewise with COLLATE "C", equality without', () => {
    expect(sql("source >= 'm' AND id < 'z' AND id != 'q'")).toEqual({
      where: '(source COLLATE "C" >= $1::text AND id COLLATE "C" < $2::text AND id <> $3::text)',
      params: ['m', 'z', 'q'],
    });
  });

  it('compares employee_email with the lowercased literal', () => {
    expect(sql("employee_email = 'Bob@X.com'")).toEqual({
      where: 'employee_email = $1::text',
      params: ['bob@x.com'],
    });
  });

  it('parenthesizes compound expressions and negations', () => {
    expect(sql("source = 'a' OR NOT (risk_score > 5 AND NOT allowlisted = true)")).toEqual({
      where:
        '(source = $1::text OR NOT (risk_score > $2::double precision AND NOT (allowlisted = $3::boolean)))',
      params: ['a', 5, true],
    });
    expect(sql("source NOT IN ('a', 'b')")).toEqual({
      where: 'NOT (source IN ($1::text, $2::text))',
      params: ['a', 'b'],
    });
  });

  it('uses custom columns and placeholder numbering', () => {
    expect(
      sql("source = 'a' OR risk_score IN (1, 2)", {
        columns: { source: 'e.source', risk_score: '"RiskScore"' },
        placeholderStart: 4,
      }),
    ).toEqual({
      where: '(e.source = $4::text OR "RiskScore" IN ($5::double precision, $6::double precision))',
      params: ['a', 1, 2],
    });
  });

  it('rejects unsafe column expressions and bad placeholder numbers', () => {
    expect(() => sql("source = 'a'", { columns: { source: 'source; DROP TABLE x' } })).toThrow(
      TypeError,
    );
    expect(() => sql("source = 'a'", { columns: { source: 'lower(source)' } })).toThrow(TypeError);
    expect(() => sql("source = 'a'", { placeholderStart: 0 })).toThrow(RangeError);
    expect(() => sql("source = 'a'", { placeholderStart: 1.5 })).toThrow(RangeError);
  });
});
