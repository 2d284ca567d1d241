import { type Migration } from './migration';

/**
 * The notifier counts the dead deliveries every few seconds for its metrics: over this index it
 * reads the dead ones only, not the whole delivery log.
 */
export const migration0010DeadDeliveriesIndex: Migration = {
  id: '0010_dead_deliveries_index',
  sql: `
CREATE INDEX deliveries_dead_idx ON deliveries (id) WHERE status = 'dead';
`,
};
