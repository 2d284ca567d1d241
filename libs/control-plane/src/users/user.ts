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

/** How a user stands: can sign in, is disabled, or was invited and has not chosen a password. */
export type UserStatus = 'active' | 'disabled' | 'invited';

/** A user as the member list shows them. */
export interface UserView extends UserRecord {
  readonly status: UserStatus;
  readonly lastSignInAt: Date | null;
  readonly passwordChangedAt: Date | null;
  /** Whether the user can sign in with a password. */
  readonly hasPassword: boolean;
  /** Whether the user is linked to a single sign-on identity. */
  readonly singleSignOn: boolean;
}

/** A single sign-on identity, as verified by the identity provider (OpenID Connect). */
export interface VerifiedIdentity {
  readonly issuer: string;
  /** The provider's stable id of the user (`sub`). */
  readonly subject: string;
  readonly email: string;
  /** Only a verified email may link an existing user or create one. */
  readonly emailVerified: boolean;
  readonly name?: string;
}
