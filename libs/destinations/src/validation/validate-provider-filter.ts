import {
  FILTER_SUBJECTS,
  type ProviderFilter,
  type FilterSubjects,
} from '@vigil/notification-policy';
import {
  invalid,
  valid,
  type DestinationFieldError,
  type DestinationValidation,
} from './destination-validation';
import { validateSourceFilter } from './validate-source-filter';

/**
 * A provider's filter from a form or a request, checked field by field: `subjects` (all when
 * absent), `minRiskScore` (a number of at least 0, or empty for none; text from a form is read
 * as a decimal number) and `sources` (names of sources events have come from, `knownSources`).
 * An absent filter lets everything through.
 */
export function validateProviderFilter(
  input: unknown,
  knownSources: readonly string[],
): DestinationValidation<ProviderFilter> {
  if (input === undefined || input === null) {
    return valid({ subjects: 'all', minRiskScore: null, sources: [] });
  }
  if (typeof input !== 'object' || Array.isArray(input))
    return invalid('filter', 'must be an object');
  const raw = input as Record<string, unknown>;
  const errors: DestinationFieldError[] = [];
  const take = <T>(result: DestinationValidation<T>): T | undefined => {
    if (result.ok) return result.value;
    errors.push(...result.errors);
    return undefined;
  };
  const subjects = take(validateSubjects(raw.subjects));
  const minRiskScore = take(validateMinRiskScore(raw.minRiskScore));
  const sources = take(validateSourceFilter(raw.sources, knownSources));
  if (errors.length > 0 || subjects === undefined || minRiskScore === undefined || !sources) {
    return { ok: false, errors };
  }
  return valid({ subjects, minRiskScore, sources });
}

function validateSubjects(
  input: unknown,
  field = 'subjects',
): DestinationValidation<FilterSubjects> {
  if (input === undefined || input === null || input === '') return valid('all');
  if (!(FILTER_SUBJECTS as readonly unknown[]).includes(input)) {
    return invalid(field, `must be one of ${FILTER_SUBJECTS.join(', ')}`);
  }
  return valid(input as FilterSubjects);
}

function validateMinRiskScore(
  input: unknown,
  field = 'minRiskScore',
): DestinationValidation<number | null> {
  if (input === undefined || input === null) return valid(null);
  const text = typeof input === 'string' ? input.trim() : undefined;
  if (text === '') return valid(null);
  const value =
    text === undefined ? input : /^[+]?(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : NaN;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    return invalid(field, 'must be a number of at least 0, or empty for every score');
  }
  return valid(value);
}
