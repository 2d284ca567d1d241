import { normalizeEmployeeEmail, type FieldName } from './event-fields';
import { type ComparisonOperator, type Literal, type QueryNode } from './query-ast';

/** The queryable part of an event, as the evaluator reads it. */
export interface QueryableEvent {
  readonly id: string;
  /** Compared after `normalizeEmployeeEmail`, like the Elasticsearch normalizer does. */
  readonly employee_email: string;
  /** A `Date`, epoch milliseconds, or an ISO 8601 string accepted by `Date.parse`. */
  readonly happened: Date | number | string;
  readonly risk_score: number;
  readonly source: string;
  readonly allowlisted: boolean;
  readonly high_prevalence: boolean;
}

/**
 * Evaluates a query against one event in memory, with exactly the semantics of the Elasticsearch
 * and SQL compilers:
 * - `!=` is the negation of `=`; `IN` is true when any value is equal;
 * - strings compare by Unicode code points (= UTF-8 byte order, like Elasticsearch keyword
 *   ranges and PostgreSQL `COLLATE "C"`), `employee_email` after lowercasing;
 * - timestamps compare as epoch milliseconds; numbers as IEEE doubles.
 *
 * Throws a plain `Error` if `happened` is an unparseable string (a bug in the caller's event).
 */
export function evaluateQuery(ast: QueryNode, event: QueryableEvent): boolean {
  switch (ast.kind) {
    case 'match_all':
      return true;
    case 'and':
      return ast.children.every((child) => evaluateQuery(child, event));
    case 'or':
      return ast.children.some((child) => evaluateQuery(child, event));
    case 'not':
      return !evaluateQuery(ast.child, event);
    case 'comparison':
      return compare(ast.op, fieldValue(event, ast.field), ast.value);
    case 'in': {
      const actual = fieldValue(event, ast.field);
      return ast.values.some((value) => compare('=', actual, value));
    }
  }
}

type FieldValue = string | number | boolean;

function fieldValue(event: QueryableEvent, field: FieldName): FieldValue {
  switch (field) {
    case 'employee_email':
      return normalizeEmployeeEmail(event.employee_email);
    case 'happened':
      return toMillis(event.happened);
    default:
      return event[field];
  }
}

function toMillis(happened: Date | number | string): number {
  const millis =
    typeof happened === 'number'
      ? happened
      : typeof happened === 'string'
        ? Date.parse(happened)
        : happened.getTime();
  if (!Number.isFinite(millis)) {
    throw new Error(`event.happened is not a valid timestamp: ${String(happened)}`);
  }
  return millis;
}

function compare(op: ComparisonOperator, actual: FieldValue, literal: Literal): boolean {
  const order = orderOf(actual, literal.value);
  switch (op) {
    case '=':
      return order === 0;
    case '!=':
      return order !== 0;
    case '<':
      return order < 0;
    case '>':
      return order > 0;
    case '<=':
      return order <= 0;
    case '>=':
      return order >= 0;
  }
}

/** Negative, zero or positive; NaN when the values are incomparable (e.g. NaN scores). */
function orderOf(actual: FieldValue, expected: FieldValue): number {
  if (typeof actual === 'string' && typeof expected === 'string') {
    return compareCodePoints(actual, expected);
  }
  if (typeof actual === 'number' && typeof expected === 'number') {
    return actual < expected ? -1 : actual > expected ? 1 : actual === expected ? 0 : Number.NaN;
  }
  if (typeof actual === 'boolean' && typeof expected === 'boolean') {
    return Number(actual) - Number(expected);
  }
  return Number.NaN;
}

/**
 * Compares two strings by Unicode code points (equivalently, by their UTF-8 bytes), unlike
 * JavaScript's `<`, which compares UTF-16 code units and orders U+E000–U+FFFF after
 * supplementary characters.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrderKey(x) - codePointOrderKey(y);
  }
  return a.length - b.length;
}

/** Moves surrogates (which encode code points ≥ U+10000) above U+E000–U+FFFF. */
function codePointOrderKey(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}
