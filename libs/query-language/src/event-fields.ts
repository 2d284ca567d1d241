/**
 * The fields of a detection event that the query language can filter on, and their types.
 *
 * Field names are case-sensitive and written in lowercase (`risk_score`, not `Risk_Score`); the
 * parser suggests the lowercase spelling when a field is written in another case.
 */
export type FieldType = 'string' | 'number' | 'boolean' | 'timestamp';

export type FieldName =
  | 'id'
  | 'employee_email'
  | 'happened'
  | 'risk_score'
  | 'source'
  | 'allowlisted'
  | 'high_prevalence';

/** Queryable field name → type, in the order the fields are listed in error messages. */
export const QUERYABLE_FIELDS: Readonly<Record<FieldName, FieldType>> = Object.freeze({
  id: 'string',
  employee_email: 'string',
  happened: 'timestamp',
  risk_score: 'number',
  source: 'string',
  allowlisted: 'boolean',
  high_prevalence: 'boolean',
});

/** The queryable field names, in declaration order. */
export const QUERYABLE_FIELD_NAMES: readonly FieldName[] = Object.freeze(
  Object.keys(QUERYABLE_FIELDS) as FieldName[],
);

export function isQueryableField(name: string): name is FieldName {
  return Object.prototype.hasOwnProperty.call(QUERYABLE_FIELDS, name);
}

// eslint-disable-next-line no-control-regex
const ASCII_ONLY = /^[\u0000-\u007f]*$/;

/**
 * Lowercases an employee email exactly like the Elasticsearch `lowercase` normalizer on the
 * `employee_email` keyword field (Lucene's `LowerCaseFilter`, i.e. Java's
 * `Character.toLowerCase` applied per code point, without locale rules and without
 * context-sensitive mappings such as the Greek final sigma).
 *
 * Everything that stores or compares employee emails outside Elasticsearch (the SQL read model,
 * the in-memory evaluator, query literals) must use this function so all three agree.
 */
export function normalizeEmployeeEmail(value: string): string {
  if (ASCII_ONLY.test(value)) return value.toLowerCase();
  let out = '';
  for (const char of value) {
    if (char === '\u0130') {
      // LATIN CAPITAL LETTER I WITH DOT ABOVE: simple mapping is `i` (full mapping adds U+0307).
      out += 'i';
      continue;
    }
    const lower = char.toLowerCase();
    // A multi-code-point result is a full (SpecialCasing) mapping; the simple mapping keeps it.
    out += [...lower].length === 1 ? lower : char;
  }
  return out;
}
