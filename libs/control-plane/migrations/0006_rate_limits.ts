import { type Migration } from './migration';

/**
 * Request budgets shared by every instance (API and ingest per token; DESIGN.md §9), in the
 * layout rate-limiter-flexible's PostgreSQL store reads and writes: one row per budget key,
 * the points spent in its window and when the window ends (epoch ms). The limiter runs no DDL:
 * this table is created here, versioned with the rest of the schema.
 *
 * UNLOGGED: every limited request writes a row, and a counter is not worth a WAL flush. A clean
 * restart of PostgreSQL keeps the rows; a crash or a failover to a replica empties the table,
 * which at most grants each token one more window.
 */
export const migration0006RateLimits: Migration = {
  id: '0006_rate_limits',
  sql: `
CREATE UNLOGGED TABLE rate_limits (
  key     varchar(255) PRIMARY KEY,
  points  integer      NOT NULL DEFAULT 0,
  expire  bigint
);

CREATE INDEX rate_limits_expire_idx ON rate_limits (expire);
`,
};
