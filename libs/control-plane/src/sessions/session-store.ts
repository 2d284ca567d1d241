import { type UserRecord } from '../users/user';

export interface NewSession {
  /** SHA-256 of the cookie value. */
  readonly id: Buffer;
  readonly userId: string;
  readonly csrfToken: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

export interface StoredSession {
  readonly csrfToken: string;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  readonly expiresAt: Date;
  readonly user: UserRecord;
}

/** Where sessions live. The real adapter is SqlSessionStore. */
export interface SessionStore {
  insert(session: NewSession): Promise<void>;
  /**
   * The session with this id, when it is neither past `expiresAt` nor idle since
   * `idleSince`, and its user is enabled.
   */
  findLive(id: Buffer, now: Date, idleSince: Date): Promise<StoredSession | null>;
  /** Sets last_seen_at to `at` unless it is within a minute of it. */
  touch(id: Buffer, at: Date): Promise<void>;
  delete(id: Buffer): Promise<void>;
  /** Removes sessions that can no longer be used; returns how many. */
  deleteDead(now: Date, idleSince: Date): Promise<number>;
}
