import {
  QUERYABLE_FIELDS,
  QUERYABLE_FIELD_NAMES,
  isQueryableField,
  normalizeEmployeeEmail,
} from './event-fields';

describe('QUERYABLE_FIELDS', () => {
  it('lists the fields and their types', () => {
    expect(QUERYABLE_FIELDS).toEqual({
      id: 'string',
      employee_email: 'string',
      happened: 'timestamp',
      risk_score: 'number',
      source: 'string',
      allowlisted: 'boolean',
      high_prevalence: 'boolean',
    });
    expect(QUERYABLE_FIELD_NAMES).toEqual(Object.keys(QUERYABLE_FIELDS));
    expect(Object.isFrozen(QUERYABLE_FIELDS)).toBe(true);
  });

  it('checks names case-sensitively and ignores inherited properties', () => {
    expect(isQueryableField('risk_score')).toBe(true);
    expect(isQueryableField('Risk_Score')).toBe(false);
    expect(isQueryableField('toString')).toBe(false);
    expect(isQueryableField('__proto__')).toBe(false);
  });
});

describe('normalizeEmployeeEmail', () => {
  it.each<[string, string]>([
    ['Alice@Example.COM', 'alice@example.com'],
    ['ÉLODIE@EXAMPLE.FR', 'élodie@example.fr'],
    // Simple (per code point) mappings, like Java's Character.toLowerCase in Lucene:
    ['İ@x', 'i@x'], // not "i̇" (full mapping)
    ['ΟΔΟΣ@x', 'οδοσ@x'], // no final-sigma rule
    ['ẞ@x', 'ß@x'],
    ['𐐀@x', '𐐨@x'], // non-BMP (Deseret)
    ['already@lower', 'already@lower'],
  ])('%s → %s', (input, output) => {
    expect(normalizeEmployeeEmail(input)).toBe(output);
    expect(normalizeEmployeeEmail(output)).toBe(output);
  });
});
