import { dlqTopicOf } from '@vigil/contracts';
import type { DecodedRecord } from './decoded-record';
import type { RecordHeaders } from './log-record';

/**
 * Why a record went to the DLQ, as a bounded class (the reason's text stays in the record's
 * `dlq.reason` header): `decode` bytes that are no value of any schema, `schema` a schema id the
 * registry does not know, `validation` a value that breaks the contract, `rejected` a value the
 * handler refused for another reason.
 */
export type DeadLetterReason = 'decode' | 'schema' | 'validation' | 'rejected';

/** A record that cannot be processed, with where it came from and why. */
export interface DeadLetter {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers?: RecordHeaders;
  reason: string;
  /** The reason's class, for metrics (the text goes in the `dlq.reason` header). */
  reasonClass: DeadLetterReason;
}

/** The record a dead letter is written as: to `<topic>.dlq`, with the original key and bytes. */
export interface DeadLetterRecord {
  topic: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: RecordHeaders;
}

/** A record a handler refused, with why; `reasonClass` defaults to `rejected`. */
export interface RejectedRecord {
  record: DecodedRecord;
  reason: string;
  reasonClass?: DeadLetterReason;
}

/** The dead letter of a record a handler refused: its original bytes and headers. */
export function deadLetterOf(
  record: DecodedRecord,
  reason: string,
  reasonClass: DeadLetterReason = 'rejected',
): DeadLetter {
  return {
    topic: record.topic,
    partition: record.partition,
    offset: record.offset,
    key: record.key,
    value: record.raw.value,
    headers: record.raw.headers,
    reason,
    reasonClass,
  };
}

/** The original headers plus where the record came from and why it is in the DLQ. */
export function deadLetterHeaders(letter: DeadLetter, at: number): RecordHeaders {
  return {
    ...letter.headers,
    'dlq.reason': letter.reason.slice(0, 2000),
    'dlq.topic': letter.topic,
    'dlq.partition': String(letter.partition),
    'dlq.offset': letter.offset,
    'dlq.at': new Date(at).toISOString(),
  };
}

/** What goes to `<topic>.dlq`, so the partition moves on and nothing is lost. */
export function deadLetterRecord(letter: DeadLetter, at: number): DeadLetterRecord {
  return {
    topic: dlqTopicOf(letter.topic),
    key: letter.key,
    value: letter.value,
    headers: deadLetterHeaders(letter, at),
  };
}
