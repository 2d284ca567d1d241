import {
  DEFAULT_TOKEN_LIFETIME_DAYS,
  SCOPES,
  SCOPE_KEYS,
  isPermissionLevel,
  isScope,
  type FieldProblem,
  type PermissionLevel,
  type Scope,
} from '@vigil/control-plane';
import { type CreateApiTokenCommand } from '@vigil/workspace';

export const EXPIRY_CHOICES = [
  { days: 30, label: '30 days' },
  { days: 60, label: '60 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
] as const;

export const SCOPE_FIELD_PREFIX = 'scope.';

/** What the create form holds, as typed: re-rendered unchanged when the server refuses it. */
export interface ApiKeyFormValues {
  readonly name: string;
  readonly expiresInDays: string;
  readonly levels: Readonly<Record<Scope, string>>;
}

/** Messages to show, by the form control they belong to. */
export interface ApiKeyFormErrors {
  readonly name?: string;
  readonly expiresInDays?: string;
  readonly permissions?: string;
  readonly scopes: Partial<Record<Scope, string>>;
  /** Problems no control owns (a tampered field name). */
  readonly other: readonly string[];
}

export const EMPTY_FORM: ApiKeyFormValues = {
  name: '',
  expiresInDays: String(DEFAULT_TOKEN_LIFETIME_DAYS),
  levels: Object.fromEntries(SCOPE_KEYS.map((s) => [s, 'none'])) as Record<Scope, string>,
};

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Reads the urlencoded body of the create form. */
export function readApiKeyForm(body: Record<string, unknown>): ApiKeyFormValues {
  const levels = Object.fromEntries(
    SCOPE_KEYS.map((scope) => [scope, text(body[`${SCOPE_FIELD_PREFIX}${scope}`]) || 'none']),
  ) as Record<Scope, string>;
  return { name: text(body.name), expiresInDays: text(body.expires_in_days), levels };
}

/** Scope fields the form does not know: passed on so the token rules refuse them. */
export function unknownScopeFields(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(body)
      .filter(([key]) => key.startsWith(SCOPE_FIELD_PREFIX))
      .map(([key, value]) => [key.slice(SCOPE_FIELD_PREFIX.length), value] as const)
      .filter(([scope]) => !isScope(scope)),
  );
}

export function withPreset(values: ApiKeyFormValues, level: PermissionLevel): ApiKeyFormValues {
  return {
    ...values,
    levels: Object.fromEntries(SCOPE_KEYS.map((s) => [s, level])) as Record<Scope, string>,
  };
}

export function grantedCount(values: ApiKeyFormValues): number {
  return SCOPE_KEYS.filter(
    (s) => isPermissionLevel(values.levels[s]) && values.levels[s] !== 'none',
  ).length;
}

/** The expiry as one of the offered choices, or a problem. */
export function parseExpiry(values: ApiKeyFormValues): number | FieldProblem {
  const days = Number(values.expiresInDays);
  return EXPIRY_CHOICES.some((c) => c.days === days)
    ? days
    : { field: 'expiresInDays', message: 'must be one of 30 days, 60 days, 90 days or 1 year' };
}

/**
 * The create form as a command: an expiry that is not one of the offered choices is refused by
 * the form itself, reported with the token rules' problems.
 */
export function createApiTokenCommand(
  values: ApiKeyFormValues,
  body: Record<string, unknown>,
  createdBy: string,
  now: Date,
): CreateApiTokenCommand {
  const expiry = parseExpiry(values);
  return {
    name: values.name,
    permissions: { ...unknownScopeFields(body), ...values.levels },
    createdBy,
    now,
    ...(typeof expiry === 'number' ? { expiresInDays: expiry } : { refused: [expiry] }),
  };
}

const FIELD_LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  expiresInDays: 'Expiration',
  expiresAt: 'Expiration',
};

/** Turns the token rules' problems into sentences placed next to the controls they concern. */
export function formErrors(problems: readonly FieldProblem[]): ApiKeyFormErrors {
  const errors: {
    name?: string;
    expiresInDays?: string;
    permissions?: string;
    scopes: Partial<Record<Scope, string>>;
    other: string[];
  } = { scopes: {}, other: [] };
  for (const problem of problems) {
    const [field, sub] = problem.field.split('.', 2);
    if (field === 'permissions' && sub === undefined) {
      errors.permissions =
        problem.message === 'at least one scope must be above None'
          ? 'Choose at least one scope above None.'
          : `Permissions ${problem.message}.`;
    } else if (field === 'permissions' && isScope(sub)) {
      errors.scopes[sub] = 'Choose None, Read-only or Read and write.';
    } else if (field === 'permissions') {
      errors.other.push(`Unknown scope “${sub}”. Reload the page and try again.`);
    } else if (field === 'name') {
      errors.name = `Name ${problem.message}.`;
    } else if (field === 'expiresInDays' || field === 'expiresAt') {
      errors.expiresInDays = `Expiration ${problem.message}.`;
    } else {
      errors.other.push(`${FIELD_LABELS[field] ?? field} ${problem.message}.`);
    }
  }
  return errors;
}

export function scopeLabelOf(scope: Scope): string {
  return SCOPES.find((s) => s.key === scope)!.label;
}
