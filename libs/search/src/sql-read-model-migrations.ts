import type { Migration, SqlClient } from '@vigil/control-plane';
import { runMigrations } from '@vigil/control-plane';

/**
 * The events read model in SQL (DESIGN.md §8): the same documents as the Elasticsearch indices,
 * as rows. Strings that are compared or ordered as Elasticsearch keywords are `COLLATE "C"`
 * (byte order, which for UTF-8 is code-point order), so the indexes serve the query language's
 * ranges and the API's sort. `employee_email` is kept as written; `employee_email_key` holds
 * normalizeEmployeeEmail of it, as the keyword's lowercase normalizer does. A report is kept as
 * the `json` text written, so it reads back exactly.
 */
export const sqlReadModelMigrations: readonly Migration[] = [
  {
    id: '0001_read_model_events_and_investigations',
    sql: `
CREATE TABLE read_model_events (
  id                 text COLLATE "C" PRIMARY KEY,
  detection_id       text COLLATE "C" NOT NULL,
  detection_name     text             NOT NULL,
  issue_type         text             NOT NULL,
  employee_email     text             NOT NULL,
  employee_email_key text COLLATE "C" NOT NULL,
  employee_name      text             NOT NULL,
  asset_name         text             NOT NULL,
  happened           timestamptz      NOT NULL,
  risk_score         double precision NOT NULL,
  source             text COLLATE "C" NOT NULL,
  high_prevalence    boolean          NOT NULL,
  allowlisted        boolean          NOT NULL,
  description        text             NOT NULL,
  indexed_at         timestamptz      NOT NULL
);

CREATE INDEX read_model_events_sort_idx ON read_model_events (happened DESC, id);
CREATE INDEX read_model_events_detection_idx
  ON read_model_events (detection_id, happened DESC, id);
CREATE INDEX read_model_events_users_idx
  ON read_model_events (detection_id, employee_email_key);

CREATE TABLE read_model_investigations (
  id          text COLLATE "C" PRIMARY KEY,
  report      json             NOT NULL,
  updated_at  timestamptz      NOT NULL
);
`,
  },
  {
    // A detection's notification state as the processor last recorded it (the dry run reads it).
    id: '0002_read_model_detection_states',
    sql: `
CREATE TABLE read_model_detection_states (
  detection_id text COLLATE "C" PRIMARY KEY,
  state        json             NOT NULL,
  recorded_at  timestamptz      NOT NULL,
  indexed_at   timestamptz      NOT NULL
);
`,
  },
];

export const SQL_READ_MODEL_LEDGER = 'read_model_schema_migrations';

/** Creates or updates the SQL read models; safe to run from several apps at once. */
export async function ensureSqlReadModels(sql: SqlClient): Promise<void> {
  await runMigrations(sql, {
    migrations: sqlReadModelMigrations,
    ledgerTable: SQL_READ_MODEL_LEDGER,
  });
}
