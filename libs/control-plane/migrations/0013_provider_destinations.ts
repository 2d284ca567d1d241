import { type Migration } from './migration';

/**
 * What a webhook provider receives (@vigil/destinations): `webhook` the SPEC payload, as every
 * provider enrolled before this migration, or a Slack, Teams or PagerDuty message.
 *
 * - `destination_options`: what the kind needs that is not secret (PagerDuty's severity mapping,
 *   source and region), shown on the provider's page.
 * - `destination_credential`: the Slack or Teams webhook URL, or the PagerDuty routing key. Each
 *   one alone lets anybody post into the channel or open incidents, so it is sealed like the
 *   signing secret (SEALED_COLUMNS) and never listed; `url` then holds where requests go with
 *   the credential left out.
 *
 * Additive: the previous release reads and writes these rows unchanged (its rows are webhooks).
 */
export const migration0013ProviderDestinations: Migration = {
  id: '0013_provider_destinations',
  sql: `
ALTER TABLE webhook_providers
  ADD COLUMN destination_kind text NOT NULL DEFAULT 'webhook'
    CHECK (destination_kind IN ('webhook', 'slack', 'teams', 'pagerduty')),
  ADD COLUMN destination_options jsonb NOT NULL DEFAULT '{}'::jsonb,
  ADD COLUMN destination_credential text,
  ADD CONSTRAINT webhook_providers_destination_credential_check
    CHECK ((destination_kind = 'webhook') = (destination_credential IS NULL));
`,
};
