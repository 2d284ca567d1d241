import { compareCodePoints, evaluateQuery, type QueryableEvent } from './evaluate-query';
import { parseQuery } from './parse-query';

const event: QueryableEvent = {
  id: 'evt-1',
  employee_email: 'Alice@Example.com',
  happened: new Date('2024-03-01T12:00:00.500Z'),
  risk_score: 7.5,
  source: 'okta',
  allowlisted: false,
  high_prevalence: true,
};

const matches = (text: string, e: QueryableEvent = event): boolean =>
  evaluateQuery(parseQuery(text), e);

describe('evaluateQuery', () => {
  it.each<[string, boolean]>([
    ['', true],
    ["id = 'evt-1'", true],
    ["id = 'EVT-1'", false],
    ["happened > '2024-01-01T00:00:00.000Z'", true],
    ['risk_score > 5', true],
    ["source = 'okta' AND allowlisted = false", true],
    ["source = 'okta' AND allowlisted = true", false],
    ["source = 'x' OR high_prevalence = true", true],
    ["NOT source = 'okta'", false],
    ["source != 'okta'", false],
    ["source != 'gsuite'", true],
    ["source IN ('gsuite', 'okta')", true],
    ["source NOT IN ('gsuite', 'okta')", false],
    ["employee_email = 'alice@example.com'", true],
    ["employee_email = 'ALICE@EXAMPLE.COM'", true],
    ["employee_email > 'Alice'", true],
    ["happened = '2024-03-01T12:00:00.5Z'", true],
    ["happened = '2024-03-01T12:00:00Z'", false],
    ["happened >= '2024-03-01T12:00:00.500+00:00'", true],
    ["happened < '2024-03-01'", false],
    ['risk_score = 7.5', true],
    ['risk_score <= 7.5 AND risk_score >= 7.5', true],
    ['risk_score < 7.5', false],
    ['risk_score IN (1, 7.5)', true],
    ['allowlisted IN (true)', false],
    ["source < 'p' AND source > 'ok'", true],
  ])('%j → %s', (text, expected) => {
    expect(matches(text)).toBe(expected);
  });

  it('accepts happened as Date, epoch millis or ISO string', () => {
    const query = "happened = '2024-03-01T12:00:00.500Z'";
    const millis = Date.UTC(2024, 2, 1, 12, 0, 0, 500);
    expect(matches(query, { ...event, happened: millis })).toBe(true);
    expect(matches(query, { ...event, happened: '2024-03-01T12:00:00.500Z' })).toBe(true);
    expect(() => matches(query, { ...event, happened: 'not a date' })).toThrow(/happened/);
  });

  it('orders strings by code point, like UTF-8 bytes (not UTF-16 units)', () => {
    // U+FFFD < U+1F600 as code points, but '\uFFFD' > '\uD83D…' as UTF-16 units.
    const e = { ...event, source: '\uFFFD' };
    expect('\uFFFD' < '😀').toBe(false);
    expect(matches("source < '😀'", e)).toBe(true);
    expect(matches("source > '😀'", e)).toBe(false);
  });
});

describe('compareCodePoints', () => {
  const utf8 = (s: string): number[] => [...new TextEncoder().encode(s)];
  const compareBytes = (a: string, b: string): number => {
    const [x, y] = [utf8(a), utf8(b)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  };
  const samples = [
    '',
    'a',
    'ab',
    'b',
    'é',
    '\uE000',
    '\uFFFF',
    '😀',
    '😁',
    '𝔘',
    'a😀',
    'a\uFFFF',
    'Z',
  ];

  it('agrees in sign with UTF-8 byte order', () => {
    for (const x of samples) {
      for (const y of samples) {
        expect(Math.sign(compareCodePoints(x, y))).toBe(Math.sign(compareBytes(x, y)));
      }
    }
  });
});
