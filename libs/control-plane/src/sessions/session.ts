import { type UserRecord } from '../users/user';

/** A session ends after this long without a request… */
export const SESSION_IDLE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
/** …and this long after sign-in, whatever the activity. */
export const SESSION_ABSOLUTE_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;

/** A signed-in browser: who it is and the CSRF token its forms must carry. */
export interface ActiveSession {
  readonly user: UserRecord;
  readonly csrfToken: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** A new session: the cookie value (the secret) and the session it opens. */
export interface StartedSession {
  /** Goes into the cookie; only its SHA-256 is stored. */
  readonly token: string;
  readonly session: ActiveSession;
}
