import type { DestinationFieldError, DestinationValidation } from './destination-validation';

export const MAX_SOURCE_FILTER_LENGTH = 100;
const LISTED_SOURCES = 20;

/**
 * A destination's source filter: the sources (connected systems, e.g. `okta`) whose events it
 * is notified about; an empty list means every source. Each name must be one of
 * `knownSources` (matched ignoring case, kept in the known spelling); duplicates are dropped.
 */
export function validateSourceFilter(
  input: unknown,
  knownSources: readonly string[],
  field = 'sources',
): DestinationValidation<string[]> {
  if (input === undefined || input === null) return { ok: true, value: [] };
  if (!Array.isArray(input)) {
    return { ok: false, errors: [{ field, message: 'must be a list of source names' }] };
  }
  if (input.length > MAX_SOURCE_FILTER_LENGTH) {
    return {
      ok: false,
      errors: [{ field, message: `must name at most ${MAX_SOURCE_FILTER_LENGTH} sources` }],
    };
  }
  const known = new Map(knownSources.map((source) => [source.toLowerCase(), source]));
  const errors: DestinationFieldError[] = [];
  const sources = new Set<string>();
  (input as unknown[]).forEach((item, i) => {
    const path = `${field}[${i}]`;
    if (typeof item !== 'string' || item.trim() === '') {
      errors.push({ field: path, message: 'must be a source name' });
      return;
    }
    const source = known.get(item.trim().toLowerCase());
    if (source === undefined) {
      errors.push({ field: path, message: unknownSource(item.trim(), knownSources) });
    } else {
      sources.add(source);
    }
  });
  return errors.length === 0 ? { ok: true, value: [...sources] } : { ok: false, errors };
}

function unknownSource(name: string, knownSources: readonly string[]): string {
  if (knownSources.length === 0) {
    return `"${name}" is not a known source: no events have arrived from any source yet`;
  }
  const listed = knownSources.slice(0, LISTED_SOURCES).join(', ');
  const more = knownSources.length > LISTED_SOURCES ? ', …' : '';
  return `"${name}" is not a known source (known: ${listed}${more})`;
}
