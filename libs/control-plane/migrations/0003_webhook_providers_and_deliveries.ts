import { type Migration } from './migration';

/**
 * Webhook providers (SPEC.md §2.5) and the durable delivery log of DESIGN.md §5.
 *
 * - A provider's signing secret is kept (it is needed to sign every request) but never listed;
 *   it is shown once at enrollment and at rotation.
 * - A delivery is unique per (notification, channel, target), so a replayed command adds nothing.
 *   Its payload is rendered once at creation and stored as `json`, which keeps the text exactly
 *   as rendered: every retry sends the same bytes.
 * - Digest entries are the lines of Batch digests; a digest is closed once per recipient and
 *   window (sequence 0), and entries arriving after that go into a follow-up (sequence 1, 2...).
 */
export const migration0003WebhookProvidersAndDeliveries: Migration = {
  id: '0003_webhook_providers_and_deliveries',
  sql: `
CREATE TABLE webhook_providers (
  id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text        NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  kind        text        NOT NULL CHECK (kind IN ('automation', 'custom')),
  url         text        NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2048),
  secret      text        NOT NULL CHECK (secret LIKE 'whsec\\_%'),
  created_at  timestamptz NOT NULL DEFAULT now(),
  rotated_at  timestamptz,
  deleted_at  timestamptz
);

CREATE INDEX webhook_providers_listed_idx
  ON webhook_providers (created_at DESC, id) WHERE deleted_at IS NULL;

CREATE TABLE deliveries (
  id               uuid        PRIMARY KEY,
  notification_id  text        NOT NULL,
  kind             text        NOT NULL CHECK (kind IN ('detection', 'investigation', 'digest')),
  channel          text        NOT NULL CHECK (channel IN ('webhook', 'email')),
  target           text        NOT NULL,
  subject_id       text,
  payload          json        NOT NULL,
  status           text        NOT NULL DEFAULT 'pending'
                               CHECK (status IN ('pending', 'delivering', 'delivered', 'dead')),
  attempt_count    integer     NOT NULL DEFAULT 0,
  series_failures  integer     NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz DEFAULT now(),
  lease_until      timestamptz,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  delivered_at     timestamptz,
  CONSTRAINT deliveries_notification_target_key UNIQUE (notification_id, channel, target)
);

CREATE INDEX deliveries_due_idx ON deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_leased_idx ON deliveries (lease_until) WHERE status = 'delivering';
CREATE INDEX deliveries_recent_idx ON deliveries (created_at DESC, id);

CREATE TABLE delivery_attempts (
  delivery_id   uuid        NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
  attempt       integer     NOT NULL CHECK (attempt >= 1),
  attempted_at  timestamptz NOT NULL,
  status_code   integer,
  latency_ms    integer     NOT NULL CHECK (latency_ms >= 0),
  error         text,
  PRIMARY KEY (delivery_id, attempt)
);

CREATE TABLE digest_entries (
  entry_key        text        NOT NULL,
  recipient        text        NOT NULL,
  window_start     bigint      NOT NULL,
  window_end       bigint      NOT NULL CHECK (window_end > window_start),
  detection_id     text        NOT NULL,
  detection_name   text        NOT NULL,
  new_count        integer     NOT NULL,
  current_count    integer     NOT NULL,
  user_count       integer     NOT NULL,
  affected_users   jsonb       NOT NULL CHECK (jsonb_typeof(affected_users) = 'array'),
  digest_sequence  integer,
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (entry_key, recipient)
);

CREATE INDEX digest_entries_open_idx ON digest_entries (window_end) WHERE digest_sequence IS NULL;

CREATE TABLE digests (
  recipient        text        NOT NULL,
  window_start     bigint      NOT NULL,
  window_end       bigint      NOT NULL,
  sequence         integer     NOT NULL CHECK (sequence >= 0),
  notification_id  text        NOT NULL,
  delivery_id      uuid        NOT NULL REFERENCES deliveries (id),
  closed_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (recipient, window_start, window_end, sequence)
);
`,
};
