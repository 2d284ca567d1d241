/** Roles of the web application. Token management requires `admin` (SPEC.md §1, §5). */
export const USER_ROLES = [
  { key: 'admin', label: 'Workspace admin' },
  { key: 'member', label: 'Member' },
] as const;

export type UserRole = (typeof USER_ROLES)[number]['key'];

export function isUserRole(value: unknown): value is UserRole {
  return typeof value === 'string' && USER_ROLES.some((r) => r.key === value);
}

export function roleLabel(role: UserRole): string {
  return USER_ROLES.find((r) => r.key === role)!.label;
}

/** A user of the web application, without the password hash. */
export interface UserRecord {
  readonly id: string;
  /** Lowercased; unique. */
  readonly email: string;
  readonly name: string;
  readonly role: UserRole;
  readonly createdAt: Date;
  readonly disabledAt: Date | null;
}
