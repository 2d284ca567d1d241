/**
 * API token permissions (SPEC.md §5, DESIGN.md §6): a level per scope. Keys are stable (they are
 * stored in Postgres and typed on the command line); labels are what the web application shows.
 */
export const SCOPES = [
  { key: 'admin', label: 'Admin', description: 'View and control all aspects of the platform' },
  { key: 'training', label: 'Training', description: 'Training completion and assignments' },
  { key: 'detection', label: 'Detection', description: 'Detection events and security alerts' },
  { key: 'risk', label: 'Risk', description: 'Risk scores and risk assessments' },
  { key: 'remediation', label: 'Remediation', description: 'View and set up remediation tasks' },
  { key: 'device', label: 'Device', description: 'Device information and statuses' },
  { key: 'shadow_it', label: 'Shadow IT', description: 'Unauthorized applications and services' },
  {
    key: 'password_compromise',
    label: 'Password Compromise',
    description: 'Reports of exposed or compromised passwords',
  },
  { key: 'oauth', label: 'OAuth', description: 'OAuth applications and permissions' },
  { key: 'browser_app', label: 'Browser App', description: 'Browser extension data and activity' },
  {
    key: 'identity',
    label: 'Identity',
    description: 'Identity events, authentication activity, breach alerts',
  },
  { key: 'person', label: 'Person', description: 'Details about individuals in the organization' },
  { key: 'email', label: 'Email', description: 'Email flows and metadata' },
  { key: 'webhook', label: 'Webhook', description: 'Send webhook events' },
] as const;

export type Scope = (typeof SCOPES)[number]['key'];
export const SCOPE_KEYS: readonly Scope[] = SCOPES.map((s) => s.key);

/** Ordered from least to most: a higher level includes every lower one. */
export const PERMISSION_LEVELS = [
  { key: 'none', label: 'None' },
  { key: 'read', label: 'Read-only' },
  { key: 'write', label: 'Read and write' },
] as const;

export type PermissionLevel = (typeof PERMISSION_LEVELS)[number]['key'];
export const LEVEL_KEYS: readonly PermissionLevel[] = PERMISSION_LEVELS.map((l) => l.key);

/** A level for every scope; stored tokens always carry the full map. */
export type Permissions = Readonly<Record<Scope, PermissionLevel>>;

const RANK: Readonly<Record<PermissionLevel, number>> = { none: 0, read: 1, write: 2 };

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPE_KEYS as readonly string[]).includes(value);
}

export function isPermissionLevel(value: unknown): value is PermissionLevel {
  return typeof value === 'string' && (LEVEL_KEYS as readonly string[]).includes(value);
}

export function scopeLabel(scope: Scope): string {
  return SCOPES.find((s) => s.key === scope)!.label;
}

export function levelLabel(level: PermissionLevel): string {
  return PERMISSION_LEVELS.find((l) => l.key === level)!.label;
}

/** True when `granted` is `needed` or a higher level. */
export function levelSatisfies(granted: PermissionLevel, needed: PermissionLevel): boolean {
  return RANK[granted] >= RANK[needed];
}

/** A preset: one level applied to every scope at once. `presetPermissions('none')` is empty. */
export function presetPermissions(level: PermissionLevel): Permissions {
  return Object.fromEntries(SCOPE_KEYS.map((scope) => [scope, level])) as Record<
    Scope,
    PermissionLevel
  >;
}

/** Fills the scopes a partial map leaves out with `none`. */
export function completePermissions(partial: Partial<Record<Scope, PermissionLevel>>): Permissions {
  return { ...presetPermissions('none'), ...partial };
}

/**
 * Whether the permissions grant `scope` at `level` or above. Admin at a level grants every
 * scope at that level (Admin read-only grants Detection read-only, not read and write).
 */
export function hasScope(
  permissions: Partial<Record<Scope, PermissionLevel>>,
  scope: Scope,
  level: PermissionLevel,
): boolean {
  const own = permissions[scope] ?? 'none';
  const admin = permissions.admin ?? 'none';
  return levelSatisfies(own, level) || levelSatisfies(admin, level);
}

/** A token can be generated only when at least one scope is above None. */
export function atLeastOneScope(permissions: Partial<Record<Scope, PermissionLevel>>): boolean {
  return SCOPE_KEYS.some((scope) => (permissions[scope] ?? 'none') !== 'none');
}

/** The granted scopes as `scope:level` strings, in SCOPES order (for lists and logs). */
export function describePermissions(
  permissions: Partial<Record<Scope, PermissionLevel>>,
): string[] {
  return SCOPE_KEYS.filter((scope) => (permissions[scope] ?? 'none') !== 'none').map(
    (scope) => `${scope}:${permissions[scope]}`,
  );
}

export interface PermissionProblem {
  readonly field: string;
  readonly message: string;
}

/**
 * Checks a permission map given by a client: every key a known scope, every value a known
 * level. Returns the complete map, or the problems found (all of them).
 */
export function parsePermissions(
  input: unknown,
): { ok: true; permissions: Permissions } | { ok: false; problems: PermissionProblem[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return {
      ok: false,
      problems: [{ field: 'permissions', message: 'must be an object of scope to level' }],
    };
  }
  const problems: PermissionProblem[] = [];
  const partial: Partial<Record<Scope, PermissionLevel>> = {};
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (!isScope(key)) {
      problems.push({
        field: `permissions.${key}`,
        message: `unknown scope; expected one of ${SCOPE_KEYS.join(', ')}`,
      });
    } else if (!isPermissionLevel(value)) {
      problems.push({
        field: `permissions.${key}`,
        message: `unknown level ${JSON.stringify(value)}; expected one of ${LEVEL_KEYS.join(', ')}`,
      });
    } else {
      partial[key] = value;
    }
  }
  return problems.length > 0
    ? { ok: false, problems }
    : { ok: true, permissions: completePermissions(partial) };
}

/**
 * Reads a permission map stored by an earlier (or later) version: unknown scopes and levels are
 * dropped rather than trusted, so a stored value can only ever grant less.
 */
export function permissionsFromStored(stored: unknown): Permissions {
  const partial: Partial<Record<Scope, PermissionLevel>> = {};
  if (typeof stored === 'object' && stored !== null) {
    for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
      if (isScope(key) && isPermissionLevel(value)) partial[key] = value;
    }
  }
  return completePermissions(partial);
}
