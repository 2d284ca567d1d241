import fc from 'fast-check';
import { parseDetectionEvent } from './detection-event';
import { parseDetectionEventFast } from './parse-detection-event-fast';

const NOW = Date.UTC(2026, 0, 1);

const valid = {
  id: 'evt-1',
  detection_id: 'det-1',
  detection_name: 'Impossible travel',
  issue_type: 'impossible_travel',
  employee_email: 'Jane.Doe@Example.com',
  employee_name: 'Jane Doe',
  asset_name: 'okta',
  happened: NOW - 1_000,
  risk_score: 5,
  source: 'okta',
  high_prevalence: false,
  allowlisted: false,
  description: null,
};

/** Values around every rule of the schema: lengths, blanks, emails, bounds, types. */
const anyText = fc.oneof(
  fc.constantFrom('', ' ', '  a  ', 'x'.repeat(200), 'x'.repeat(201), 'x'.repeat(2001), ' é '),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(0, null, true, undefined, ['a'], { a: 1 }),
);
const anyEmail = fc.oneof(
  fc.constantFrom(
    'a@b.co',
    'A.B@Example.COM',
    ' a@b.co',
    'a@b',
    'a..b@c.io',
    `${'a'.repeat(320)}@b.co`,
    '',
    "o'neil+x@mail.example.org",
  ),
  fc.emailAddress(),
  fc.string({ maxLength: 12 }),
);
const anyNumber = fc.oneof(
  fc.constantFrom(NOW, NOW + 86_400_000, NOW + 86_400_001, Date.UTC(2000, 0, 1) - 1),
  fc.constantFrom(0, -1, 1_000_000, 1_000_001, 2.5, NaN, Infinity, Number.MAX_SAFE_INTEGER + 2),
  fc.double(),
  fc.constantFrom('2025-01-01T00:00:00Z', '2025-02-30T00:00:00Z', '5', null),
);
const anyBoolean = fc.oneof(fc.boolean(), fc.constantFrom(0, 'true', null));

const mutated = fc
  .record(
    {
      id: anyText,
      detection_id: anyText,
      detection_name: anyText,
      issue_type: anyText,
      employee_email: anyEmail,
      employee_name: anyText,
      asset_name: anyText,
      happened: anyNumber,
      risk_score: anyNumber,
      source: anyText,
      high_prevalence: anyBoolean,
      allowlisted: anyBoolean,
      description: fc.oneof(anyText, fc.constant('  ')),
      extra: fc.constant('unknown field'),
    },
    { requiredKeys: [] },
  )
  .map((changes) => ({ ...valid, ...changes }));

describe('parseDetectionEventFast', () => {
  it('accepts and canonicalizes a valid record exactly as parseDetectionEvent does', () => {
    expect(parseDetectionEventFast(valid, NOW)).toEqual(parseDetectionEvent(valid, NOW));
    expect(parseDetectionEventFast(valid, NOW)).toEqual({
      ok: true,
      value: {
        ...valid,
        employee_email: 'jane.doe@example.com',
        description: 'impossible travel on okta',
      },
    });
  });

  it('gives the same result as parseDetectionEvent for any record', () => {
    fc.assert(
      fc.property(mutated, (record) => {
        expect(parseDetectionEventFast(record, NOW)).toEqual(parseDetectionEvent(record, NOW));
      }),
      { numRuns: 1_000 },
    );
  });

  it('gives the same result for values that are not records', () => {
    for (const input of [null, undefined, 42, 'x', [valid], Object.create(null)]) {
      expect(parseDetectionEventFast(input, NOW)).toEqual(parseDetectionEvent(input, NOW));
    }
  });
});
