import {
  LEVEL_KEYS,
  SCOPE_KEYS,
  isPermissionLevel,
  isScope,
  presetPermissions,
  type PermissionLevel,
  type Scope,
} from '@vigil/control-plane';

/** Bad command-line input; the message says what is wrong and what is expected. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ScopeGrant {
  readonly scope: Scope;
  readonly level: PermissionLevel;
}

const LEVEL_ALIASES: Readonly<Record<string, PermissionLevel>> = {
  none: 'none',
  read: 'read',
  'read-only': 'read',
  ro: 'read',
  write: 'write',
  'read-write': 'write',
  rw: 'write',
};

/** `detection:read`, `shadow-it:write`, `admin:none`: a scope key and a level. */
export function parseScopeArg(input: string): ScopeGrant {
  const separator = input.lastIndexOf(':');
  if (separator <= 0 || separator === input.length - 1) {
    throw new UsageError(`"${input}" is not <scope>:<level>, for example detection:read`);
  }
  const scope = input.slice(0, separator).trim().toLowerCase().replaceAll('-', '_');
  const level =
    LEVEL_ALIASES[
      input
        .slice(separator + 1)
        .trim()
        .toLowerCase()
    ];
  if (!isScope(scope)) {
    throw new UsageError(`unknown scope "${scope}"; scopes: ${SCOPE_KEYS.join(', ')}`);
  }
  if (level === undefined) {
    throw new UsageError(
      `unknown level "${input.slice(separator + 1)}"; levels: ${LEVEL_KEYS.join(', ')}`,
    );
  }
  return { scope, level };
}

/** `--preset read`: one level for every scope. */
export function parsePresetArg(input: string): PermissionLevel {
  const level = LEVEL_ALIASES[input.trim().toLowerCase()];
  if (level === undefined || !isPermissionLevel(level)) {
    throw new UsageError(`unknown preset "${input}"; presets: ${LEVEL_KEYS.join(', ')}`);
  }
  return level;
}

/** The preset first, then each --scope on top of it (a later grant of a scope wins). */
export function buildPermissions(
  preset: PermissionLevel | undefined,
  grants: readonly ScopeGrant[],
): Partial<Record<Scope, PermissionLevel>> {
  const permissions: Partial<Record<Scope, PermissionLevel>> =
    preset === undefined ? {} : { ...presetPermissions(preset) };
  for (const { scope, level } of grants) permissions[scope] = level;
  return permissions;
}

export type ExpiryChoice = { readonly expiresInDays: number } | { readonly expiresAt: Date };

const DAYS = /^(\d{1,4})d$/i;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * `--expires 30d` (days from now) or an ISO 8601 date: `2026-03-01` (00:00 UTC that day) or a
 * date-time with its zone (`2026-03-01T09:00:00Z`, `...+02:00`). Whether it is in range (future,
 * at most a year) is the token service's rule, not the parser's.
 */
export function parseExpiresArg(input: string): ExpiryChoice {
  const value = input.trim();
  const days = DAYS.exec(value);
  if (days) return { expiresInDays: Number(days[1]) };
  if (DATE_ONLY.test(value)) {
    const at = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== value) {
      throw new UsageError(`"${input}" is not a calendar date`);
    }
    return { expiresAt: at };
  }
  if (DATE_TIME.test(value)) {
    const at = new Date(value);
    if (Number.isNaN(at.getTime())) throw new UsageError(`"${input}" is not a valid date-time`);
    return { expiresAt: at };
  }
  throw new UsageError(
    `"${input}" is not a duration or a date; use for example 30d, 2026-03-01 or 2026-03-01T09:00:00Z`,
  );
}

const AGO = /^(\d{1,6})(m|h|d)$/i;
const AGO_UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `--since 7d` (that long before `now`: m, h or d) or an ISO 8601 date (00:00 UTC that day) or
 * date-time with its zone, as `--expires` takes them.
 */
export function parseInstantArg(input: string, now: Date): Date {
  const value = input.trim();
  const ago = AGO.exec(value);
  if (ago) return new Date(now.getTime() - Number(ago[1]) * AGO_UNIT_MS[ago[2].toLowerCase()]);
  if (DATE_ONLY.test(value) || DATE_TIME.test(value)) {
    try {
      const parsed = parseExpiresArg(value);
      if ('expiresAt' in parsed) return parsed.expiresAt;
    } catch {
      // An impossible date: refused below like any other input.
    }
  }
  throw new UsageError(
    `"${input}" is not a time; use for example 7d, 12h, 30m (ago), 2026-03-01 or 2026-03-01T09:00:00Z`,
  );
}
