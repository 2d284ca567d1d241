import { type OneTimeLinkPurpose } from './one-time-link';
import { type UserRecord, type UserRole, type UserView } from './user';

export interface NewUser {
  readonly email: string;
  readonly name: string;
  readonly role: UserRole;
  /** Null for a user who has no password yet (invited) or signs in with single sign-on only. */
  readonly passwordHash: string | null;
  readonly createdAt: Date;
  readonly oidcIdentity?: { readonly issuer: string; readonly subject: string };
}

export interface StoredUser extends UserRecord {
  readonly passwordHash: string | null;
}

export interface StoredLinkToken {
  readonly userId: string;
  readonly purpose: OneTimeLinkPurpose;
  readonly expiresAt: Date;
  readonly usedAt: Date | null;
  readonly supersededAt: Date | null;
}

/**
 * Where users, their one-time link tokens and their sessions' end live. The real adapter is
 * SqlUserStore, on a client or inside a transaction.
 */
export interface UserStore {
  /** Inserts a user; null when the email is taken. */
  insert(user: NewUser): Promise<UserRecord | null>;
  /** Inserts a user only when there is no user at all; null otherwise. */
  insertIfNoUsers(user: NewUser): Promise<UserRecord | null>;
  findByEmail(email: string): Promise<StoredUser | null>;
  findById(id: string): Promise<UserRecord | null>;
  findByOidcIdentity(issuer: string, subject: string): Promise<StoredUserIdentity | null>;
  list(): Promise<UserView[]>;
  /** Locks the row for the rest of the transaction. */
  lockById(id: string): Promise<UserRecord | null>;
  /** Active (enabled) admins other than `id`. */
  countOtherActiveAdmins(id: string): Promise<number>;
  /** Sets the role unless that leaves no active admin; false when refused or missing. */
  setRole(id: string, role: UserRole): Promise<boolean>;
  /** Disables unless that leaves no active admin; false when refused or missing. */
  disable(id: string, at: Date): Promise<boolean>;
  enable(id: string): Promise<boolean>;
  /** Deletes unless that leaves no active admin; false when refused or missing. */
  delete(id: string): Promise<boolean>;
  /** Sets the password of an enabled user; false when the user is disabled or missing. */
  setPassword(id: string, passwordHash: string, at: Date): Promise<boolean>;
  recordSignIn(id: string, at: Date): Promise<void>;
  linkOidcIdentity(id: string, issuer: string, subject: string): Promise<boolean>;
  /** Ends every session of the user. */
  deleteSessions(userId: string): Promise<number>;
  /** Stores a new link token and supersedes the user's unused ones of the same purpose. */
  insertLinkToken(token: {
    hash: Buffer;
    userId: string;
    purpose: OneTimeLinkPurpose;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void>;
  /** Marks a live token used and returns it; null when it is unknown, used, superseded or expired. */
  consumeLinkToken(hash: Buffer, at: Date): Promise<StoredLinkToken | null>;
  findLinkToken(hash: Buffer): Promise<StoredLinkToken | null>;
}

export interface StoredUserIdentity extends UserRecord {
  readonly oidcIssuer: string | null;
  readonly oidcSubject: string | null;
}
