import { isUnavailableError, type SqlClient } from '@vigil/control-plane';
import { compileToSql, type SqlParam } from '@vigil/query-language';
import {
  MAX_DETECTION_LIST_OFFSET,
  decodeDetectionCursor,
  encodeDetectionCursor,
} from './detection-cursor';
import {
  fromDetectionStateDocument,
  type RecordedDetectionState,
} from './detection-state-documents';
import type { EventView } from './event-documents';
import {
  type AffectedUserPage,
  type AffectedUserSearch,
  type DetectionListPage,
  type DetectionListSearch,
  type DetectionSummary,
  type EventPage,
  type EventReadModel,
  type EventSearch,
  type InvestigationReport,
  SOURCES_LISTED,
} from './event-read-model';
import { ReadModelUnavailableError } from './read-model-unavailable-error';

const EVENT_COLUMNS = `id, issue_type, employee_email, employee_name, asset_name, happened,
  risk_score, source, high_prevalence, allowlisted, detection_id, detection_name, description`;
/** The API's order (DESIGN.md §6); `id` is `COLLATE "C"`, i.e. by code point as in Elasticsearch. */
const ORDER = 'ORDER BY happened DESC, id ASC';

type EventRow = Omit<EventView, 'happened'> & { happened: Date };

function toView(row: EventRow): EventView {
  return {
    id: row.id,
    issue_type: row.issue_type,
    employee_email: row.employee_email,
    employee_name: row.employee_name,
    asset_name: row.asset_name,
    happened: new Date(row.happened).toISOString(),
    risk_score: Number(row.risk_score),
    source: row.source,
    high_prevalence: row.high_prevalence,
    allowlisted: row.allowlisted,
    detection_id: row.detection_id,
    detection_name: row.detection_name,
    description: row.description,
  };
}

const iso = (value: Date | string): string => new Date(value).toISOString();

/**
 * The query API's read side over SQL (the embedded database, or PostgreSQL), on the tables of
 * `ensureSqlReadModels`. Filters come from `compileToSql`, the second compiler of the query
 * AST; pages, cursors and figures are those of ElasticsearchEventReadModel, exactly.
 */
export class SqlEventReadModel implements EventReadModel {
  constructor(private readonly sql: SqlClient) {}

  async searchEvents(search: EventSearch): Promise<EventPage> {
    const { where, params } = compileToSql(search.query, {
      columns: { employee_email: 'employee_email_key' },
    });
    const all: SqlParam[] = [...params];
    const conditions = [where];
    if (search.detectionId !== undefined) {
      all.push(search.detectionId);
      conditions.push(`detection_id = $${all.length}::text`);
    }
    if (search.after !== undefined) {
      all.push(new Date(search.after[0]).toISOString(), search.after[1]);
      const at = `$${all.length - 1}::timestamptz`;
      conditions.push(`(happened < ${at} OR (happened = ${at} AND id > $${all.length}::text))`);
    }
    all.push(search.limit + 1);
    const { rows } = await this.run<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM read_model_events WHERE ${conditions.join(' AND ')}
       ${ORDER} LIMIT $${all.length}::int`,
      all,
    );
    const page = rows.slice(0, search.limit);
    const last = page[page.length - 1];
    return {
      items: page.map(toView),
      next: rows.length > search.limit ? [new Date(last.happened).getTime(), last.id] : null,
    };
  }

  async listSources(): Promise<string[]> {
    const { rows } = await this.run<{ source: string }>(
      `SELECT DISTINCT source FROM read_model_events ORDER BY source LIMIT ${SOURCES_LISTED}`,
      [],
    );
    return rows.map((row) => row.source);
  }

  async getDetection(detectionId: string): Promise<DetectionSummary | null> {
    const { rows } = await this.run<{
      event_count: number;
      user_count: number;
      first_seen: Date;
      last_seen: Date;
      max_risk_score: number;
      name: string;
    }>(
      `SELECT count(*)::int AS event_count, count(DISTINCT employee_email_key)::int AS user_count,
         min(happened) AS first_seen, max(happened) AS last_seen, max(risk_score) AS max_risk_score,
         (SELECT detection_name FROM read_model_events WHERE detection_id = $1::text ${ORDER}
          LIMIT 1) AS name
       FROM read_model_events WHERE detection_id = $1::text`,
      [detectionId],
    );
    const row = rows[0];
    if (row === undefined || row.event_count === 0) return null;
    return {
      id: detectionId,
      name: row.name,
      event_count: row.event_count,
      user_count: row.user_count,
      first_seen: iso(row.first_seen),
      last_seen: iso(row.last_seen),
      max_risk_score: Number(row.max_risk_score),
    };
  }

  async detectionExists(detectionId: string): Promise<boolean> {
    const { rows } = await this.run<{ found: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM read_model_events WHERE detection_id = $1::text) AS found',
      [detectionId],
    );
    return rows[0]?.found === true;
  }

  /** By position, as the Elasticsearch list: the offset cursor and its cap are the same. */
  async listDetections(search: DetectionListSearch): Promise<DetectionListPage> {
    const offset = search.cursor === undefined ? 0 : decodeDetectionCursor(search.cursor);
    if (offset === null) throw new RangeError('The detection cursor is not one this list issued');
    const { rows } = await this.run<{
      id: string;
      event_count: number;
      last_seen: Date;
      max_risk_score: number;
      name: string;
    }>(
      `WITH page AS (
         SELECT detection_id AS id, count(*)::int AS event_count, max(happened) AS last_seen,
           max(risk_score) AS max_risk_score
         FROM read_model_events GROUP BY detection_id
         ORDER BY last_seen DESC, detection_id ASC OFFSET $1::int LIMIT $2::int)
       SELECT page.*, (SELECT detection_name FROM read_model_events e
                       WHERE e.detection_id = page.id ${ORDER} LIMIT 1) AS name
       FROM page ORDER BY last_seen DESC, id ASC`,
      [offset, search.limit + 1],
    );
    const items = rows.slice(0, search.limit).map((row) => ({
      id: row.id,
      name: row.name,
      event_count: row.event_count,
      last_seen: iso(row.last_seen),
      max_risk_score: Number(row.max_risk_score),
    }));
    const nextOffset = offset + items.length;
    const nextCursor =
      rows.length > search.limit && nextOffset <= MAX_DETECTION_LIST_OFFSET
        ? encodeDetectionCursor(nextOffset)
        : null;
    return { items, nextCursor };
  }

  async listAffectedUsers(search: AffectedUserSearch): Promise<AffectedUserPage> {
    const params: unknown[] = [search.detectionId, search.limit + 1];
    let after = '';
    if (search.after !== undefined) {
      params.push(search.after);
      after = 'AND employee_email_key > $3::text';
    }
    const { rows } = await this.run<{
      employee_email: string;
      employee_name: string;
      event_count: number;
      max_risk_score: number;
      last_seen: Date;
    }>(
      `SELECT employee_email_key AS employee_email,
         (array_agg(employee_name ORDER BY happened DESC, id ASC))[1] AS employee_name,
         count(*)::int AS event_count, max(risk_score) AS max_risk_score,
         max(happened) AS last_seen
       FROM read_model_events WHERE detection_id = $1::text ${after}
       GROUP BY employee_email_key ORDER BY employee_email_key LIMIT $2::int`,
      params,
    );
    const page = rows.slice(0, search.limit).map((row) => ({
      employee_email: row.employee_email,
      employee_name: row.employee_name,
      event_count: row.event_count,
      max_risk_score: Number(row.max_risk_score),
      last_seen: iso(row.last_seen),
    }));
    return {
      items: page,
      next: rows.length > search.limit ? page[page.length - 1].employee_email : null,
    };
  }

  async getInvestigation(investigationId: string): Promise<InvestigationReport | null> {
    const { rows } = await this.run<{ report: InvestigationReport }>(
      'SELECT report FROM read_model_investigations WHERE id = $1::text',
      [investigationId],
    );
    const report = rows[0]?.report;
    return report ? { ...report, updated_at: iso(report.updated_at) } : null;
  }

  async getDetectionState(detectionId: string): Promise<RecordedDetectionState | null> {
    const { rows } = await this.run<{ state: unknown; recorded_at: Date | string }>(
      'SELECT state, recorded_at FROM read_model_detection_states WHERE detection_id = $1::text',
      [detectionId],
    );
    const row = rows[0];
    return row ? fromDetectionStateDocument({ ...row, recorded_at: iso(row.recorded_at) }) : null;
  }

  private async run<T>(text: string, params: readonly unknown[]): Promise<{ rows: T[] }> {
    try {
      return await this.sql.query<T>(text, params);
    } catch (error) {
      if (isUnavailableError(error)) throw new ReadModelUnavailableError('PostgreSQL', error);
      throw error;
    }
  }
}
