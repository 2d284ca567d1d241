import { type UserRecord, type UserRole } from './user';

export interface NewUser {
  readonly email: string;
  readonly name: string;
  readonly role: UserRole;
  readonly passwordHash: string;
  readonly createdAt: Date;
}

export interface StoredUser extends UserRecord {
  readonly passwordHash: string;
}

/** Where users live. The real adapter is SqlUserStore. */
export interface UserStore {
  /** Inserts a user; null when the email is taken. */
  insert(user: NewUser): Promise<UserRecord | null>;
  /** Inserts a user only when there is no user at all; null otherwise. */
  insertIfNoUsers(user: NewUser): Promise<UserRecord | null>;
  findByEmail(email: string): Promise<StoredUser | null>;
  findById(id: string): Promise<UserRecord | null>;
}
