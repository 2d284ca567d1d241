import { type Migration } from './migration';

/**
 * What offboarding and single sign-on need of users.
 *
 * - `password_hash` may be null: an invited user has not chosen one yet, and a user created at
 *   a single sign-on has none; either way password sign-in fails.
 * - `oidc_issuer` and `oidc_subject` link a user to the identity provider's stable subject, so a
 *   later sign-in finds the user by that pair rather than by an email that the provider may
 *   reassign; the email only links an existing user on the first sign-in.
 * - `user_tokens` are one-time links (invitation, password reset): only the SHA-256 of the link's
 *   secret is kept; a link is used once, expires, and is superseded by a newer one of its kind.
 */
export const migration0008UserLifecycle: Migration = {
  id: '0008_user_lifecycle',
  sql: `
ALTER TABLE users
  ALTER COLUMN password_hash DROP NOT NULL,
  ADD COLUMN password_changed_at timestamptz,
  ADD COLUMN last_sign_in_at timestamptz,
  ADD COLUMN oidc_issuer text CHECK (char_length(oidc_issuer) BETWEEN 1 AND 2048),
  ADD COLUMN oidc_subject text CHECK (char_length(oidc_subject) BETWEEN 1 AND 255),
  ADD CONSTRAINT users_oidc_identity_key UNIQUE (oidc_issuer, oidc_subject),
  ADD CONSTRAINT users_oidc_identity_complete
    CHECK ((oidc_issuer IS NULL) = (oidc_subject IS NULL));

CREATE INDEX users_active_admins_idx ON users (id) WHERE role = 'admin' AND disabled_at IS NULL;

CREATE TABLE user_tokens (
  token_hash     bytea       PRIMARY KEY CHECK (octet_length(token_hash) = 32),
  user_id        uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose        text        NOT NULL CHECK (purpose IN ('invitation', 'password_reset')),
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz,
  superseded_at  timestamptz,
  CONSTRAINT user_tokens_expires_after_creation CHECK (expires_at > created_at)
);

CREATE INDEX user_tokens_user_idx ON user_tokens (user_id, purpose);
`,
};
