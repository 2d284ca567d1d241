import type { LogRecord } from '../port/log-record';
import type { StoredRecord } from './log-frame';

/** A stored record as consumers see it, the same shape whichever log stores it. */
export function toLogRecord(record: StoredRecord): LogRecord {
  return {
    key: record.key,
    value: record.value,
    headers: record.headers,
    offset: String(record.offset),
    timestamp: String(record.timestamp),
  };
}
