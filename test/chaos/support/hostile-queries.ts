import fc from 'fast-check';
import { printQuery } from '@vigil/query-language';
import { queryOver, type ValuePools } from '../../support/query-arbitraries';

const VOCABULARY = [
  'id',
  'employee_email',
  'happened',
  'risk_score',
  'source',
  'allowlisted',
  'high_prevalence',
  'employee_name',
  '__proto__',
  'AND',
  'and',
  'OR',
  'NOT',
  'IN',
  'TRUE',
  'false',
  'NULL',
  '=',
  '!=',
  '<>',
  '<',
  '>',
  '<=',
  '>=',
  '==',
  '(',
  ')',
  ',',
  "'",
  "''",
  '"',
  ';',
  '--',
  '/*',
  '\\',
  '*',
  '%',
  "'a'",
  "'ada@example.com'",
  "'2025-05-01T12:00:00.000Z'",
  '1',
  '-1',
  '0',
  '-0',
  '1.5',
  '.5',
  '1.',
  '1e309',
  '-1e309',
  '1e-400',
  '1e308',
  '0x10',
  '1_000',
  '00001',
  'NaN',
  'Infinity',
  '123456789012345678901234567890',
];

const ODD_TIMESTAMPS = [
  '2024-02-30T00:00:00Z',
  '2024-02-29T24:00:00Z',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  '+275760-09-13T00:00:00.000Z',
  '+275760-09-13T00:00:00.001Z',
  '-271821-04-20T00:00:00.000Z',
  '-000001-01-01T00:00:00Z',
  '1970-01-01T00:00:00Z',
  '1969-12-31T23:59:59.999Z',
  '2024-01-01T00:00:60Z',
  '2024-01-01T00:00:00+14:00',
  '2024-01-01T00:00:00-00:00',
  '2024-01-01T00:00:00.123456789Z',
  '2024-01-01',
  '2024',
  '2024-01-01 00:00:00',
  'now',
  '',
];

const UNICODE = [
  '\u0000',
  '\ud800',
  '\udfff',
  '\ud83d\ude00',
  '\u202e',
  '\u200f',
  '\ufeff',
  '\u2028',
  'é',
  'ＡＮＤ',
  'İ',
  'ß',
];

const ALPHABET = [...'abcdefghijklmnopqrstuvwxyz_ ()=<>!,\'"-.:0123456789ZT\n\t', ...UNICODE];

/** Splits a query into rough tokens (quoted strings kept whole) for token-level mutations. */
function roughTokens(text: string): string[] {
  return text.match(/'(?:[^']|'')*'|\s+|[()=,]|[<>!]=?|[^\s()=,<>!']+|'/g) ?? [];
}

type Mutation =
  | { kind: 'deleteChar' | 'deleteToken' | 'duplicateToken'; at: number }
  | { kind: 'insertChar'; at: number; text: string }
  | { kind: 'insertToken'; at: number; text: string }
  | { kind: 'swapChars' | 'swapTokens'; at: number; other: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('deleteChar', 'deleteToken', 'duplicateToken'), at: fc.nat() }),
  fc.record({ kind: fc.constant('insertChar'), at: fc.nat(), text: fc.constantFrom(...ALPHABET) }),
  fc.record({
    kind: fc.constant('insertToken'),
    at: fc.nat(),
    text: fc.constantFrom(...VOCABULARY).map((t) => ` ${t} `),
  }),
  fc.record({ kind: fc.constantFrom('swapChars', 'swapTokens'), at: fc.nat(), other: fc.nat() }),
);

function mutate(text: string, m: Mutation): string {
  if (m.kind.endsWith('Char')) {
    const chars = [...text];
    const at = chars.length === 0 ? 0 : m.at % (chars.length + 1);
    if (m.kind === 'deleteChar') chars.splice(at, 1);
    else if (m.kind === 'insertChar' && 'text' in m) chars.splice(at, 0, m.text);
    else if ('other' in m && chars.length > 0) {
      const a = at % chars.length;
      const b = m.other % chars.length;
      [chars[a], chars[b]] = [chars[b], chars[a]];
    }
    return chars.join('');
  }
  const tokens = roughTokens(text);
  const at = tokens.length === 0 ? 0 : m.at % (tokens.length + 1);
  if (m.kind === 'deleteToken') tokens.splice(at, 1);
  else if (m.kind === 'duplicateToken' && tokens.length > 0)
    tokens.splice(at, 0, tokens[at % tokens.length]);
  else if (m.kind === 'insertToken' && 'text' in m) tokens.splice(at, 0, m.text);
  else if ('other' in m && tokens.length > 0) {
    const a = at % tokens.length;
    const b = m.other % tokens.length;
    [tokens[a], tokens[b]] = [tokens[b], tokens[a]];
  }
  return tokens.join('');
}

/** Query texts a hostile or clumsy caller sends; some valid, most not. */
export function hostileQueryText(pools: ValuePools): fc.Arbitrary<string> {
  const valid = queryOver(pools).map(printQuery);
  const field = fc.constantFrom(
    'id',
    'employee_email',
    'happened',
    'risk_score',
    'source',
    'allowlisted',
    'high_prevalence',
  );
  const op = fc.constantFrom('=', '!=', '<', '>', '<=', '>=');
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    {
      weight: 8,
      arbitrary: fc
        .tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 4 }))
        .map(([text, ms]) => ms.reduce(mutate, text)),
    },
    {
      weight: 2,
      arbitrary: fc
        .array(fc.constantFrom(...VOCABULARY), { maxLength: 12 })
        .map((t) => t.join(' ')),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 60 }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 5000 }), fc.boolean())
        .map(
          ([open, close, not]) =>
            (not ? 'NOT ('.repeat(open) : '('.repeat(open)) + 'risk_score > 1' + ')'.repeat(close),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          field,
          fc.integer({ min: 0, max: 3000 }),
          fc.constantFrom("'v'", '1', 'true', "'2025-01-01T00:00:00Z'"),
        )
        .map(
          ([f, n, literal]) => `${f} IN (${Array.from({ length: n }, () => literal).join(',')})`,
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(field, op, fc.integer({ min: 1, max: 600 }))
        .map(([f, o, n]) => Array.from({ length: n }, (_, i) => `${f} ${o} ${i}`).join(' OR ')),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(op, fc.constantFrom(...VOCABULARY.filter((t) => /\d|NaN|Infinity/.test(t))))
        .map(([o, n]) => `risk_score ${o} ${n}`),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(op, fc.constantFrom(...ODD_TIMESTAMPS), fc.boolean())
        .map(([o, t, quoted]) => `happened ${o} ${quoted ? `'${t}'` : t}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(field, op, fc.array(fc.constantFrom(...UNICODE, 'a', "''"), { maxLength: 8 }))
        .map(([f, o, s]) => `${f} ${o} '${s.join('')}'`),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 8000, max: 9000 }).map((n) => `id = '${'x'.repeat(n)}'`),
    },
  );
}

/** A forged or damaged paging cursor. */
export const hostileCursor: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.base64String({ maxLength: 60 }),
  fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from(b).toString('base64url')),
  fc
    .tuple(
      fc.oneof(
        fc.constantFrom(
          Number.MAX_SAFE_INTEGER,
          Number.MIN_SAFE_INTEGER,
          8_640_000_000_000_001,
          -8_640_000_000_000_001,
          0,
          -1,
          1e21,
          1.5,
        ),
        fc.integer(),
      ),
      fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('', 'x'.repeat(1500))),
    )
    .map((key) => Buffer.from(JSON.stringify(key)).toString('base64url')),
  fc
    .jsonValue({ maxDepth: 2 })
    .map((v) => Buffer.from(JSON.stringify(v) ?? '').toString('base64url')),
  fc.constantFrom(null, 0, 1, true, [], {}, 'x'.repeat(3000)),
);

/** The request bodies of the two event endpoints, well- and ill-typed, as raw JSON text. */
export function hostileEventsBody(pools: ValuePools): fc.Arbitrary<string> {
  const query = fc.oneof(
    { weight: 8, arbitrary: hostileQueryText(pools).map((q) => JSON.stringify(q)) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null'),
        fc.constantFrom('1e309', '-0', 'null', 'true', '[]', '{}'),
      ),
    },
  );
  const limit = fc.oneof(
    fc.integer({ min: 1, max: 1000 }).map(String),
    fc.constantFrom(
      '0',
      '1001',
      '-1',
      '1.5',
      '1e3',
      '1e309',
      '-0',
      '"10"',
      'null',
      'true',
      '[]',
      '9007199254740993',
    ),
  );
  const cursor = hostileCursor.map((c) => JSON.stringify(c));
  return fc.oneof(
    {
      weight: 10,
      arbitrary: fc
        .record(
          {
            query,
            limit,
            cursor,
            extra: fc.jsonValue({ maxDepth: 1 }).map((v) => JSON.stringify(v) ?? 'null'),
          },
          { requiredKeys: [] },
        )
        .map(
          (fields) =>
            `{${Object.entries(fields)
              .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
              .join(',')}}`,
        ),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
        fc.constantFrom(
          '',
          '[',
          '{"query":',
          '{"query":"a" "limit":1}',
          '{"query":"\\ud800"}',
          '{"__proto__":{"limit":1}}',
        ),
        fc.integer({ min: 1, max: 10_000 }).map((d) => '['.repeat(d) + ']'.repeat(d)),
      ),
    },
  );
}
