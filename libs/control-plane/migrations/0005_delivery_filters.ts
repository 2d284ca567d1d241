import { type Migration } from './migration';

/**
 * A detection's page lists the deliveries about it, and a provider's page the deliveries sent
 * to it, newest first: each reads its own rows in order instead of scanning the whole log.
 */
export const migration0005DeliveryFilters: Migration = {
  id: '0005_delivery_filters',
  sql: `
CREATE INDEX deliveries_subject_idx
  ON deliveries (subject_id, created_at DESC, id) WHERE subject_id IS NOT NULL;
CREATE INDEX deliveries_target_idx ON deliveries (target, created_at DESC, id);
`,
};
