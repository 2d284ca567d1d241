import { gzipSync } from 'node:zlib';
import fc from 'fast-check';

/** One hostile request to an ingest endpoint, and how many records its body holds if known. */
export interface HostileIngestRequest {
  endpoint: 'detection-events' | 'investigations';
  headers: Record<string, string>;
  body: Buffer;
  /** Records the body holds when it is a well-formed batch; null when that is not known. */
  records: number | null;
  label: string;
}

export interface HostileIngestLimits {
  maxBodyBytes: number;
  maxRecords: number;
}

const EVENT_FIELDS: Record<string, unknown> = {
  id: 'evt-1',
  detection_id: 'det-fuzz',
  detection_name: 'Impossible travel',
  issue_type: 'impossible_travel',
  employee_email: 'ada@example.com',
  employee_name: 'Ada Lovelace',
  asset_name: 'okta',
  happened: '2025-05-01T12:00:00.000Z',
  risk_score: 7.5,
  source: 'okta',
  high_prevalence: false,
  allowlisted: false,
  description: 'impossible travel on okta',
};

const INVESTIGATION_FIELDS: Record<string, unknown> = {
  id: 'inv-1',
  status: 'completed',
  outcome: 'confirmed_risk',
  headline: 'Credential sharing by Ada',
  summary: 'Ada shared a password.',
  confidence: 'high',
  recommended_action: 'Reset the password.',
  risk_score: 8.5,
  findings: [{ title: 'Password shared', description: 'chat export', evidence: ['m-17'] }],
  person: {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    role: 'Engineer',
    department: null,
    manager: null,
  },
  detection: { id: 'det-fuzz', name: 'Password sharing' },
  updated_at: '2025-05-02T09:30:00.000Z',
};

const HOSTILE_NUMBERS = [
  '1e309',
  '-1e309',
  '-0',
  '0',
  '1e-400',
  '-1',
  '0.1e1',
  '1E2',
  '123456789012345678901234567890',
  '9007199254740993',
  '8640000000000001',
  '-8640000000000001',
  '1e20',
  '"NaN"',
  '"Infinity"',
  '"-0"',
  '"1e309"',
];

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'a\ud83d',
  '\ud83d\ude00',
  '\u202eevil\u202c',
  '\u200f\u05d0\u05d1',
  '\ufeff',
  '\u2028\u2029',
  'ＡＤＡ@example.com',
  'ada@exa\u0000mple.com',
  "ada'@example.com",
  'a'.repeat(201),
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '%00%ff',
];

const HOSTILE_TIMESTAMPS = [
  '2024-02-30T00:00:00Z',
  '2024-02-29T24:00:00Z',
  '2023-02-29T12:00:00.000Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '+275760-09-13T00:00:00.000Z',
  '-000001-01-01T00:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-01-01T00:00:60Z',
  '2024-01-01T00:00:00+01:00',
  '2024-01-01T00:00:00.1234567Z',
  '2024-01-01',
  '2024-01-01T00:00:00',
  '1714564800000',
  'yesterday',
];

/** Raw JSON text (not necessarily valid) for a value, so numbers like 1e309 survive. */
function rawValue(valid: unknown, bodyBudget: number): fc.Arbitrary<string> {
  const deep = fc
    .tuple(fc.integer({ min: 1, max: 10_000 }), fc.boolean())
    .map(([depth, arrays]) =>
      arrays
        ? '['.repeat(depth) + ']'.repeat(depth)
        : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
    );
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(JSON.stringify(valid)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS).map((s) => JSON.stringify(s)) },
    // Unescaped: a lone surrogate or NUL reaches the wire as raw bytes, not as an escape.
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS).map((s) => `"${s}"`) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_TIMESTAMPS).map((s) => JSON.stringify(s)) },
    {
      weight: 1,
      arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((s) => JSON.stringify(s)),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1, max: Math.max(2, Math.floor(bodyBudget * 1.2)) })
        .map((n) => JSON.stringify('x'.repeat(n))),
    },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: fc.constantFrom('null', 'true', '[]', '{}', '""', '[null]') },
  );
}

/** A record as raw JSON text: fields kept, dropped, duplicated, retyped or added. */
function rawRecord(fields: Record<string, unknown>, bodyBudget: number): fc.Arbitrary<string> {
  const entries = Object.entries(fields);
  const mutated = fc.tuple(
    ...entries.map(([key, valid]) =>
      fc.tuple(
        fc.constant(key),
        fc.oneof(
          { weight: 6, arbitrary: rawValue(valid, bodyBudget) },
          { weight: 1, arbitrary: fc.constant(null) },
        ),
        fc.integer({ min: 0, max: 19 }),
      ),
    ),
  );
  const extra = fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('__proto__', 'constructor', 'id', 'extra', ''),
        fc.string({ maxLength: 8 }),
      ),
      rawValue('x', bodyBudget),
    ),
    { maxLength: 2 },
  );
  return fc.tuple(fc.boolean(), mutated, extra).map(([pristine, kept, added]) => {
    if (pristine) return JSON.stringify({ ...fields, id: `${String(fields.id)}-${Math.random()}` });
    const parts: string[] = [];
    for (const [key, value, dup] of kept) {
      if (value === null) continue;
      parts.push(`${JSON.stringify(key)}:${value}`);
      // A duplicate key: JSON.parse keeps the last one.
      if (dup === 0) parts.push(`${JSON.stringify(key)}:${JSON.stringify(fields[key])}`);
    }
    for (const [key, value] of added) parts.push(`${JSON.stringify(key)}:${value}`);
    return `{${parts.join(',')}}`;
  });
}

const INVALID_UTF8 = [
  [0xff],
  [0xc3, 0x28],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe2, 0x82],
  [0x00],
  [0xef, 0xbb, 0xbf],
].map((bytes) => Buffer.from(bytes));

/** Byte-level damage after serialisation: truncation and invalid UTF-8 sequences. */
function damage(body: Buffer): fc.Arbitrary<{ body: Buffer; damaged: boolean }> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant({ body, damaged: false }) },
    {
      weight: 1,
      arbitrary: fc
        .nat({ max: Math.max(0, body.length) })
        .map((at) => ({ body: body.subarray(0, at), damaged: true })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.nat({ max: Math.max(0, body.length) }), fc.constantFrom(...INVALID_UTF8))
        .map(([at, bytes]) => ({
          body: Buffer.concat([body.subarray(0, at), bytes, body.subarray(at)]),
          damaged: true,
        })),
    },
  );
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON; Charset="UTF-8"',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=bogus',
  'application/x-ndjson',
  'application/x-ndjson; charset=utf-8',
  'application/x-ndjson; charset=koi8-r',
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/json-patch+json',
  '*/*',
  '',
  ';;;',
  'application/json; charset=',
];

/** Hostile requests to the ingest endpoints; the batch sizes and body sizes follow the limits. */
export function hostileIngestRequest(
  token: string,
  limits: HostileIngestLimits,
): fc.Arbitrary<HostileIngestRequest> {
  const budget = limits.maxBodyBytes;
  const endpoint = fc.constantFrom<HostileIngestRequest['endpoint']>(
    'detection-events',
    'investigations',
  );
  return endpoint.chain((path) => {
    const fields = path === 'detection-events' ? EVENT_FIELDS : INVESTIGATION_FIELDS;
    const record = rawRecord(fields, budget);
    const batch = fc.array(record, { maxLength: 5 });
    const structured = fc.oneof(
      batch.map((records) => ({
        format: 'json' as const,
        text: `[${records.join(',')}]`,
        records: records.length,
        label: 'json array',
      })),
      record.map((r) => ({ format: 'json' as const, text: r, records: 1, label: 'json object' })),
      fc.tuple(batch, fc.constantFrom('\n', '\r\n'), fc.boolean()).map(([records, eol, blank]) => ({
        format: 'ndjson' as const,
        text: records.join(blank ? `${eol}${eol}` : eol) + (blank ? eol : ''),
        records: records.length,
        label: 'ndjson',
      })),
      fc
        .tuple(batch, fc.array(fc.string({ maxLength: 20 }), { minLength: 1, maxLength: 3 }))
        .map(([records, garbage]) => {
          const lines = [...records, ...garbage.map((g) => `{${g}`)];
          return {
            format: 'ndjson' as const,
            text: lines.join('\n'),
            records: lines.length,
            label: 'ndjson with garbage',
          };
        }),
      fc.integer({ min: limits.maxRecords + 1, max: limits.maxRecords * 3 }).map((n) => ({
        format: 'json' as const,
        text: `[${Array.from({ length: n }, () => '{}').join(',')}]`,
        records: n,
        label: 'too many records',
      })),
    );
    const unstructured = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.constantFrom(
        '',
        ' ',
        '\n',
        'null',
        '"text"',
        '1e309',
        '[',
        ']',
        '{',
        '[,]',
        '[1,]',
        '{"a":1,}',
        'NaN',
        '\ufeff[]',
      ),
      fc.integer({ min: 1, max: 10_000 }).map((d) => '['.repeat(d) + ']'.repeat(d)),
      fc.integer({ min: 1, max: 10_000 }).map((d) => '{"a":'.repeat(d) + 'null' + '}'.repeat(d)),
      fc.integer({ min: budget + 1, max: budget * 2 }).map((n) => `["${'x'.repeat(n)}"]`),
    );
    const bytes = fc.oneof(
      {
        weight: 6,
        arbitrary: structured.map((s) => ({ ...s, body: Buffer.from(s.text, 'utf8') })),
      },
      {
        weight: 3,
        arbitrary: unstructured.map((text) => ({
          format: null,
          records: null,
          label: 'unstructured',
          body: Buffer.from(text, 'utf8'),
        })),
      },
      {
        weight: 1,
        arbitrary: fc.uint8Array({ maxLength: 300 }).map((a) => ({
          format: null,
          records: null,
          label: 'random bytes',
          body: Buffer.from(a),
        })),
      },
    );
    return fc
      .tuple(
        bytes,
        fc.oneof(
          { weight: 4, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
        ),
        fc.constantFrom<string | null>(
          null,
          null,
          null,
          null,
          null,
          null,
          'gzip',
          'gzip-garbage',
          'deflate',
          'br',
          'identity',
          'bogus',
        ),
        fc.constantFrom<string | null>(
          `Bearer ${token}`,
          `Bearer ${token}`,
          `Bearer ${token}`,
          `Bearer ${token}`,
          null,
          'Bearer vgk1-forged',
          `Basic ${token}`,
        ),
      )
      .chain(([b, contentType, encoding, authorization]) =>
        damage(b.body).map(({ body, damaged }) => {
          const format = 'format' in b ? b.format : null;
          const headers: Record<string, string> = {};
          headers['content-type'] =
            contentType ?? (format === 'ndjson' ? 'application/x-ndjson' : 'application/json');
          if (authorization) headers.authorization = authorization;
          let sent = body;
          if (encoding === 'gzip') {
            headers['content-encoding'] = 'gzip';
            sent = gzipSync(body);
          } else if (encoding === 'gzip-garbage') {
            headers['content-encoding'] = 'gzip';
          } else if (encoding) headers['content-encoding'] = encoding;
          const knownRecords =
            damaged || contentType !== null || encoding !== null ? null : b.records;
          return {
            endpoint: path,
            headers,
            body: sent,
            records: knownRecords,
            label: `${b.label}${damaged ? ', damaged' : ''}${encoding ? `, ${encoding}` : ''}`,
          };
        }),
      );
  });
}
