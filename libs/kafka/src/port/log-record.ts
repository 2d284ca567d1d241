/** Header values as a producer gives them; the log hands them back to consumers as Buffers. */
export interface RecordHeaders {
  [name: string]: Buffer | string | (Buffer | string)[] | undefined;
}

/** A record as the log hands it to a consumer: its bytes and headers, where it stands, when it was written. */
export interface LogRecord {
  key: Buffer | null;
  value: Buffer | null;
  headers?: RecordHeaders;
  /** Kafka offsets are int64: a decimal string keeps them exact. */
  offset: string;
  /** Epoch milliseconds, as a decimal string. */
  timestamp: string;
}
