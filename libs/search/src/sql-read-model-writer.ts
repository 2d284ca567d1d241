import type { DetectionEventRecord, InvestigationRecord } from '@vigil/contracts';
import type { SqlClient } from '@vigil/control-plane';
import { normalizeEmployeeEmail } from '@vigil/query-language';
import {
  lastStateOfEachDetection,
  toDetectionStateDocument,
  type RecordedDetectionState,
} from './detection-state-documents';
import { toEventDocument } from './event-documents';
import type { ReadModelWriter, RejectedDocument } from './read-model-writer';

const UPSERT_EVENTS = `
INSERT INTO read_model_events (id, detection_id, detection_name, issue_type, employee_email,
  employee_email_key, employee_name, asset_name, happened, risk_score, source, high_prevalence,
  allowlisted, description, indexed_at)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
  $7::text[], $8::text[], $9::timestamptz[], $10::float8[], $11::text[], $12::boolean[],
  $13::boolean[], $14::text[], $15::timestamptz[])
ON CONFLICT (id) DO UPDATE SET
  detection_id = EXCLUDED.detection_id, detection_name = EXCLUDED.detection_name,
  issue_type = EXCLUDED.issue_type, employee_email = EXCLUDED.employee_email,
  employee_email_key = EXCLUDED.employee_email_key, employee_name = EXCLUDED.employee_name,
  asset_name = EXCLUDED.asset_name, happened = EXCLUDED.happened,
  risk_score = EXCLUDED.risk_score, source = EXCLUDED.source,
  high_prevalence = EXCLUDED.high_prevalence, allowlisted = EXCLUDED.allowlisted,
  description = EXCLUDED.description, indexed_at = EXCLUDED.indexed_at`;

const UPSERT_INVESTIGATIONS = `
INSERT INTO read_model_investigations (id, report, updated_at)
SELECT id, report::json, updated_at
FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS r (id, report, updated_at)
ON CONFLICT (id) DO UPDATE SET report = EXCLUDED.report, updated_at = EXCLUDED.updated_at`;

// A replayed (older) state leaves a newer one in place.
const UPSERT_DETECTION_STATES = `
INSERT INTO read_model_detection_states (detection_id, state, recorded_at, indexed_at)
SELECT id, state::json, recorded_at, indexed_at
FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[])
  AS r (id, state, recorded_at, indexed_at)
ON CONFLICT (detection_id) DO UPDATE SET state = EXCLUDED.state,
  recorded_at = EXCLUDED.recorded_at, indexed_at = EXCLUDED.indexed_at
WHERE read_model_detection_states.recorded_at <= EXCLUDED.recorded_at`;

/** The last record of each id, in first-seen order: a bulk request's last write wins too. */
function lastOfEachId<T>(records: readonly T[], idOf: (r: T) => string): T[] {
  const byId = new Map<string, T>();
  for (const record of records) {
    byId.delete(idOf(record));
    byId.set(idOf(record), record);
  }
  return [...byId.values()];
}

/** A value PostgreSQL cannot store (a NUL in text, say): the record's fault, not the batch's. */
function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('22');
}

/**
 * Writes the read models into SQL with one upsert per batch; the event id (report id) is the
 * key, so a replayed record overwrites itself and changes nothing. When a batch holds a value
 * PostgreSQL refuses, its records are written one by one and the refused ones come back.
 */
export class SqlReadModelWriter implements ReadModelWriter {
  constructor(private readonly sql: SqlClient) {}

  async indexEvents(
    events: readonly DetectionEventRecord[],
    now: number,
  ): Promise<RejectedDocument<DetectionEventRecord>[]> {
    return this.upsert(
      lastOfEachId(events, (e) => e.id),
      (batch) => {
        const docs = batch.map((e) => toEventDocument(e, now));
        return this.sql.query(UPSERT_EVENTS, [
          docs.map((d) => d.id),
          docs.map((d) => d.detection_id),
          docs.map((d) => d.detection_name),
          docs.map((d) => d.issue_type),
          docs.map((d) => d.employee_email),
          docs.map((d) => normalizeEmployeeEmail(d.employee_email)),
          docs.map((d) => d.employee_name),
          docs.map((d) => d.asset_name),
          docs.map((d) => d.happened),
          docs.map((d) => d.risk_score),
          docs.map((d) => d.source),
          docs.map((d) => d.high_prevalence),
          docs.map((d) => d.allowlisted),
          docs.map((d) => d.description),
          docs.map((d) => d.indexed_at),
        ]);
      },
    );
  }

  async indexInvestigations(
    reports: readonly InvestigationRecord[],
  ): Promise<RejectedDocument<InvestigationRecord>[]> {
    return this.upsert(
      lastOfEachId(reports, (r) => r.id),
      (batch) => {
        const updatedAt = batch.map((r) => new Date(r.updated_at).toISOString());
        return this.sql.query(UPSERT_INVESTIGATIONS, [
          batch.map((r) => r.id),
          batch.map((r, i) => JSON.stringify({ ...r, updated_at: updatedAt[i] })),
          updatedAt,
        ]);
      },
    );
  }

  async indexDetectionStates(
    states: readonly RecordedDetectionState[],
    now: number,
  ): Promise<RejectedDocument<RecordedDetectionState>[]> {
    return this.upsert(lastStateOfEachDetection(states), (batch) => {
      const docs = batch.map((state) => toDetectionStateDocument(state, now));
      return this.sql.query(UPSERT_DETECTION_STATES, [
        docs.map((d) => d.detection_id),
        docs.map((d) => JSON.stringify(d.state)),
        docs.map((d) => d.recorded_at),
        docs.map((d) => d.indexed_at),
      ]);
    });
  }

  private async upsert<T>(
    records: T[],
    write: (batch: T[]) => Promise<unknown>,
  ): Promise<RejectedDocument<T>[]> {
    if (records.length === 0) return [];
    try {
      await write(records);
      return [];
    } catch (error) {
      if (!isDataException(error)) throw error;
    }
    const rejected: RejectedDocument<T>[] = [];
    for (const record of records) {
      try {
        await write([record]);
      } catch (error) {
        if (!isDataException(error)) throw error;
        rejected.push({ record, reason: `refused by the database: ${(error as Error).message}` });
      }
    }
    return rejected;
  }
}
