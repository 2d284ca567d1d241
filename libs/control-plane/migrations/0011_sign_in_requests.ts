import { type Migration } from './migration';

/**
 * Single sign-on requests under way (OpenID Connect): one row per authorization request, from
 * the moment the browser leaves for the identity provider until it comes back, keyed by a hash
 * of the request's `state`. The callback deletes the row it uses, so a replayed callback finds
 * nothing; rows of abandoned requests are deleted when they expire (minutes).
 */
export const migration0011SignInRequests: Migration = {
  id: '0011_sign_in_requests',
  sql: `
CREATE TABLE sign_in_requests (
  state_hash     bytea        PRIMARY KEY,
  code_verifier  text         NOT NULL,
  nonce          text         NOT NULL,
  next_path      text         NOT NULL,
  created_at     timestamptz  NOT NULL,
  expires_at     timestamptz  NOT NULL
);

CREATE INDEX sign_in_requests_expires_at_idx ON sign_in_requests (expires_at);
`,
};
