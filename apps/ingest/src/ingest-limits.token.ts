/** Injects the IngestLimits a batch is held to. */
export const INGEST_LIMITS = Symbol('INGEST_LIMITS');

export interface IngestLimits {
  maxRecords: number;
}
