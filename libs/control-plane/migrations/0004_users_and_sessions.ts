import { type Migration } from './migration';

/**
 * Users of the web application and their sessions. Passwords are argon2id PHC strings. A
 * session row is keyed by the SHA-256 of the cookie value, never the value itself; deleting the
 * row signs the browser out.
 */
export const migration0004UsersAndSessions: Migration = {
  id: '0004_users_and_sessions',
  sql: `
CREATE TABLE users (
  id             uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
  email          text        NOT NULL CHECK (email = lower(email) AND char_length(email) BETWEEN 3 AND 254),
  name           text        NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  role           text        NOT NULL CHECK (role IN ('admin', 'member')),
  password_hash  text        NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  disabled_at    timestamptz,
  CONSTRAINT users_email_key UNIQUE (email)
);

CREATE TABLE sessions (
  id            bytea       PRIMARY KEY CHECK (octet_length(id) = 32),
  user_id       uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  csrf_token    text        NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  CONSTRAINT sessions_expires_after_creation CHECK (expires_at > created_at)
);

CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);
`,
};
