import type { LogRecord } from './log-record';

/** A record with its decoded value; `raw` is the record as stored, for its dead letter. */
export interface DecodedRecord {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  raw: LogRecord;
  value: unknown;
}
