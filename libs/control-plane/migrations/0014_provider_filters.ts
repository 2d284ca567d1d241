import { type Migration } from './migration';

/**
 * Which notifications a provider receives (ProviderFilter in @vigil/notification-policy):
 * detections, investigations or both, a minimum risk score, a list of sources. A notification a
 * provider's filter holds back is still recorded, as a `skipped` delivery whose `last_error`
 * says why, so the delivery log answers "why did this not reach Slack?".
 *
 * Additive for the providers; the previous release reads skipped deliveries as rows it never
 * claims (it claims `pending` ones only) and lists them with their status.
 */
export const migration0014ProviderFilters: Migration = {
  id: '0014_provider_filters',
  sql: `
ALTER TABLE webhook_providers
  ADD COLUMN filter_subjects text NOT NULL DEFAULT 'all'
    CHECK (filter_subjects IN ('all', 'detections', 'investigations')),
  ADD COLUMN filter_min_risk_score double precision
    CHECK (filter_min_risk_score >= 0),
  ADD COLUMN filter_sources text[] NOT NULL DEFAULT '{}';

ALTER TABLE deliveries DROP CONSTRAINT deliveries_status_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_status_check
  CHECK (status IN ('pending', 'delivering', 'delivered', 'dead', 'skipped'));
`,
};
