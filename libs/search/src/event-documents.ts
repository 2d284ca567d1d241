import type { DetectionEventRecord } from '@vigil/contracts';

/** An event as the query API returns it (SPEC.md §2.1, plus its detection and description). */
export interface EventView {
  id: string;
  issue_type: string;
  employee_email: string;
  employee_name: string;
  asset_name: string;
  happened: string;
  risk_score: number;
  source: string;
  high_prevalence: boolean;
  allowlisted: boolean;
  detection_id: string;
  detection_name: string;
  description: string;
}

export type EventDocument = EventView & { indexed_at?: string };

export function toEventDocument(event: DetectionEventRecord, indexedAt: number): EventDocument {
  return {
    id: event.id,
    issue_type: event.issue_type,
    employee_email: event.employee_email,
    employee_name: event.employee_name,
    asset_name: event.asset_name,
    happened: new Date(event.happened).toISOString(),
    risk_score: event.risk_score,
    source: event.source,
    high_prevalence: event.high_prevalence,
    allowlisted: event.allowlisted,
    detection_id: event.detection_id,
    detection_name: event.detection_name,
    description: event.description ?? '',
    indexed_at: new Date(indexedAt).toISOString(),
  };
}

export function toEventView(doc: EventDocument): EventView {
  return {
    id: doc.id,
    issue_type: doc.issue_type,
    employee_email: doc.employee_email,
    employee_name: doc.employee_name,
    asset_name: doc.asset_name,
    happened: new Date(doc.happened).toISOString(),
    risk_score: doc.risk_score,
    source: doc.source,
    high_prevalence: doc.high_prevalence,
    allowlisted: doc.allowlisted,
    detection_id: doc.detection_id,
    detection_name: doc.detection_name,
    description: doc.description,
  };
}
