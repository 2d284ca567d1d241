import type { DetectionEventRecord, InvestigationRecord } from '@vigil/contracts';

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
}
