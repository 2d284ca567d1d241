/** The IngestInstruments counting records accepted and rejected. */
export const INGEST_INSTRUMENTS = Symbol('INGEST_INSTRUMENTS');
