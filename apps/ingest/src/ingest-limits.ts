export const INGEST_LIMITS = Symbol('INGEST_LIMITS');

export interface IngestLimits {
  maxRecords: number;
}

/** The ContractRecordPublisher of the app's message log (Kafka or in-process). */
export const CONTRACT_PUBLISHER = Symbol('CONTRACT_PUBLISHER');
