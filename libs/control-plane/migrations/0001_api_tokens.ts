import { type Migration } from './migration';

/**
 * API tokens (SPEC.md §2.4, DESIGN.md §6). Only the SHA-256 of the value is kept. Deletion
 * sets deleted_at, so a deleted token fails authentication at once and stays auditable.
 */
export const migration0001ApiTokens: Migration = {
  id: '0001_api_tokens',
  sql: `
CREATE TABLE api_tokens (
  id            uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
  name          text        NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  permissions   jsonb       NOT NULL CHECK (jsonb_typeof(permissions) = 'object'),
  token_hash    bytea       NOT NULL CHECK (octet_length(token_hash) = 32),
  last_four     text        NOT NULL CHECK (char_length(last_four) = 4),
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  expires_at    timestamptz NOT NULL,
  deleted_at    timestamptz,
  created_by    text,
  CONSTRAINT api_tokens_token_hash_key UNIQUE (token_hash),
  CONSTRAINT api_tokens_expires_after_creation CHECK (expires_at > created_at)
);

CREATE INDEX api_tokens_listed_idx ON api_tokens (created_at DESC, id) WHERE deleted_at IS NULL;
`,
};
