import type { DetectionEventRecord, InvestigationRecord } from '@vigil/contracts';
import type { RecordedDetectionState } from './detection-state-documents';

export interface RejectedDocument<T> {
  record: T;
  reason: string;
}

/**
 * The write side of the read models, used by ReadModelProjector. A replayed record overwrites
 * itself. Records the backend refuses for their content come back (for the DLQ); any other
 * failure throws so the batch is retried.
 */
export interface ReadModelWriter {
  indexEvents(
    events: readonly DetectionEventRecord[],
    now: number,
  ): Promise<RejectedDocument<DetectionEventRecord>[]>;
  indexInvestigations(
    reports: readonly InvestigationRecord[],
  ): Promise<RejectedDocument<InvestigationRecord>[]>;
  /**
   * Keeps each detection's latest recorded state: a state recorded before the one stored (a
   * replay) changes nothing.
   */
  indexDetectionStates(
    states: readonly RecordedDetectionState[],
    now: number,
  ): Promise<RejectedDocument<RecordedDetectionState>[]>;
}
