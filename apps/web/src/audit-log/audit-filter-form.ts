import { type AuditFilter } from '@vigil/control-plane';

/** The filter form of Settings → Audit log, as typed (query parameters). */
export interface AuditFilterValues {
  readonly since: string;
  readonly until: string;
  readonly actor: string;
  readonly action: string;
  readonly targetType: string;
  readonly targetId: string;
  readonly cursor: string;
}

export type AuditFilterField = 'since' | 'until' | 'actor' | 'action' | 'targetType' | 'targetId';
export type AuditFilterErrors = Partial<Record<AuditFilterField | 'cursor', string>>;

export interface ReadAuditFilter {
  readonly values: AuditFilterValues;
  /** What to ask the log for; absent while the form has errors. */
  readonly filter?: Omit<AuditFilter, 'limit'>;
  readonly errors: AuditFilterErrors;
}

/** The query parameter of each field. */
export const AUDIT_QUERY_PARAMS: Readonly<Record<keyof AuditFilterValues, string>> = {
  since: 'since',
  until: 'until',
  actor: 'actor',
  action: 'action',
  targetType: 'target_type',
  targetId: 'target_id',
  cursor: 'cursor',
};

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_TEXT = 320;

function text(query: Record<string, unknown>, name: string): string {
  const value = query[name];
  return typeof value === 'string' ? value.trim().slice(0, 2000) : '';
}

/** A calendar day `YYYY-MM-DD` as its first instant in UTC, or null when it is not one. */
function day(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const at = new Date(`${value}T00:00:00.000Z`);
  return Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== value ? null : at;
}

/**
 * Reads the filter from the page's query: days from and until (both included, UTC), the actor,
 * an action or kind of action, and a target. Every problem is named by its field; the log
 * itself checks the action's shape and the cursor.
 */
export function readAuditFilter(query: Record<string, unknown>): ReadAuditFilter {
  const values = Object.fromEntries(
    Object.entries(AUDIT_QUERY_PARAMS).map(([field, param]) => [field, text(query, param)]),
  ) as unknown as AuditFilterValues;
  const errors: AuditFilterErrors = {};
  const since = values.since === '' ? undefined : day(values.since);
  const until = values.until === '' ? undefined : day(values.until);
  if (since === null) errors.since = 'From must be a date such as 2026-03-01.';
  if (until === null) errors.until = 'Until must be a date such as 2026-03-31.';
  if (since && until && until < since) errors.until = 'Until must be on or after From.';
  for (const field of ['actor', 'targetId'] as const) {
    if (values[field].length > MAX_TEXT) {
      errors[field] =
        `${field === 'actor' ? 'Actor' : 'Target'} must be at most ${MAX_TEXT} characters.`;
    }
  }
  if (Object.keys(errors).length > 0) return { values, errors };
  const filter: Omit<AuditFilter, 'limit'> = {
    since: since ?? undefined,
    // Until a day includes that day.
    until: until ? new Date(until.getTime() + DAY_MS) : undefined,
    actor: values.actor || undefined,
    action: values.action || undefined,
    targetType: values.targetType || undefined,
    targetId: values.targetId || undefined,
    cursor: values.cursor || undefined,
  };
  return { values, filter, errors };
}

/** The page's address for `values`, empty fields left out (the pager's links, the form's). */
export function auditQuery(values: Partial<AuditFilterValues>): string {
  const params = new URLSearchParams();
  for (const [field, param] of Object.entries(AUDIT_QUERY_PARAMS)) {
    const value = values[field as keyof AuditFilterValues];
    if (value) params.set(param, value);
  }
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}
