import { type Migration } from './migration';

/**
 * Endpoint health and the fallback destination (issue #20 items 3 and 4).
 *
 * Providers keep how their deliveries have been going since `health_since` (enrollment or the
 * last re-enable): `failing_since`, the first failed attempt after the last success, and
 * `dead_in_a_row`, the dead deliveries since the last success. The notifier disables a provider
 * whose counters cross its rules (`disabled_at`, `disabled_reason`); while disabled, its
 * notifications are recorded as `skipped` with `skip_cause = 'disabled'`, which "recover"
 * resends with their ids (so receivers see the same `webhook-id`s).
 *
 * A fallback destination (global: scope `*`; or a detection's id) is a provider, recipients or
 * both that receive a delivery that died after its last retry, once: `fallback_sent_at` marks a
 * dead delivery whose fallback deliveries were created, in the same transaction.
 *
 * Additive: the previous release ignores the new columns and the `fallback` and `notice` kinds
 * (it lists them as it lists any delivery) and keeps sending to a provider this one disabled.
 */
export const migration0015EndpointHealthAndFallback: Migration = {
  id: '0015_endpoint_health_and_fallback',
  sql: `
ALTER TABLE webhook_providers
  ADD COLUMN health_since timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN failing_since timestamptz,
  ADD COLUMN dead_in_a_row integer NOT NULL DEFAULT 0 CHECK (dead_in_a_row >= 0),
  ADD COLUMN disabled_at timestamptz,
  ADD COLUMN disabled_reason text,
  ADD CONSTRAINT webhook_providers_disabled_reason
    CHECK ((disabled_at IS NULL) = (disabled_reason IS NULL));

ALTER TABLE deliveries
  ADD COLUMN skip_cause text CHECK (skip_cause IN ('filter', 'disabled')),
  ADD COLUMN fallback_sent_at timestamptz;

UPDATE deliveries SET skip_cause = 'filter' WHERE status = 'skipped';

ALTER TABLE deliveries DROP CONSTRAINT deliveries_kind_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_kind_check
  CHECK (kind IN ('detection', 'investigation', 'digest', 'fallback', 'notice'));

-- The dead deliveries whose fallback is still to be created: what the notifier's sweep reads.
CREATE INDEX deliveries_fallback_due_idx ON deliveries (updated_at)
  WHERE status = 'dead' AND fallback_sent_at IS NULL;

CREATE TABLE fallback_destinations (
  scope        text        PRIMARY KEY CHECK (char_length(scope) BETWEEN 1 AND 200),
  provider_id  uuid        REFERENCES webhook_providers (id),
  recipients   text[]      NOT NULL DEFAULT '{}',
  updated_at   timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT fallback_destinations_not_empty
    CHECK (provider_id IS NOT NULL OR cardinality(recipients) > 0)
);
`,
};
