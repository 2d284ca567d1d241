import type { QueryNode } from '@vigil/query-language';
import type { RecordedDetectionState } from './detection-state-documents';
import type { EventView } from './event-documents';
import type { EventSortKey } from './event-cursor';

export interface EventSearch {
  query: QueryNode;
  detectionId?: string;
  limit: number;
  after?: EventSortKey;
}

export interface EventPage {
  items: EventView[];
  next: EventSortKey | null;
}

export interface DetectionSummary {
  id: string;
  name: string;
  event_count: number;
  user_count: number;
  first_seen: string;
  last_seen: string;
  max_risk_score: number;
}

/** One row of the detection list: figures from the events, exact; no user count (see listDetections). */
export interface DetectionListItem {
  id: string;
  name: string;
  event_count: number;
  last_seen: string;
  max_risk_score: number;
}

export interface DetectionListSearch {
  limit: number;
  /** A cursor from a previous page (see detection-cursor.ts); absent for the first page. */
  cursor?: string;
}

export interface DetectionListPage {
  items: DetectionListItem[];
  nextCursor: string | null;
}

export interface AffectedUser {
  employee_email: string;
  employee_name: string;
  event_count: number;
  max_risk_score: number;
  last_seen: string;
}

export interface AffectedUserSearch {
  detectionId: string;
  limit: number;
  /** The (normalized) email of the last user of the previous page. */
  after?: string;
}

export interface AffectedUserPage {
  items: AffectedUser[];
  next: string | null;
}

export interface InvestigationReport {
  id: string;
  status: string;
  outcome: string | null;
  headline: string;
  summary: string;
  confidence: string;
  recommended_action: string;
  risk_score: number;
  findings: { title: string; description: string; evidence: string[] }[];
  person: {
    name: string;
    email: string;
    role: string | null;
    department: string | null;
    manager: string | null;
  };
  detection: { id: string; name: string };
  updated_at: string;
}

/**
 * The read side of the query API, implemented over Elasticsearch (and, in the embedded mode,
 * over SQL). Sort order is fixed: happened descending, then id ascending.
 */
export interface EventReadModel {
  searchEvents(search: EventSearch): Promise<EventPage>;
  /** Every figure is exact: counts are counted, never estimated. */
  getDetection(detectionId: string): Promise<DetectionSummary | null>;
  detectionExists(detectionId: string): Promise<boolean>;
  /**
   * Detections by last activity, newest first (ties by id). Event counts are exact; distinct
   * users are left to getDetection, since counting them exactly costs a walk per detection.
   */
  listDetections(search: DetectionListSearch): Promise<DetectionListPage>;
  /** Users ordered by normalized email, one bucket per email. */
  listAffectedUsers(search: AffectedUserSearch): Promise<AffectedUserPage>;
  getInvestigation(investigationId: string): Promise<InvestigationReport | null>;
  /**
   * The detection's notification state as the processor last recorded it, or null before the
   * indexer has seen one. It lags the processor by the indexer's delay (seconds).
   */
  getDetectionState(detectionId: string): Promise<RecordedDetectionState | null>;
  /**
   * The sources (connected systems, e.g. `okta`) events have come from, in alphabetical order,
   * at most SOURCES_LISTED: what a provider's filter may name.
   */
  listSources(): Promise<string[]>;
}

/** More sources than any deployment connects; a filter names a few of them. */
export const SOURCES_LISTED = 1000;
