import type { DetectionEventRecord, InvestigationRecord } from '@vigil/contracts';

/** Publishes connector-facing records, keyed by detection or investigation id. */
export interface ContractRecordPublisher {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  publishDetectionEvents(events: readonly DetectionEventRecord[]): Promise<void>;
  publishInvestigations(reports: readonly InvestigationRecord[]): Promise<void>;
}
