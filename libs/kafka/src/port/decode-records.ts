import { DecodeError } from './decode-error';
import type { DeadLetter } from './dead-letter';
import type { DecodedRecord } from './decoded-record';
import type { LogRecord } from './log-record';

/**
 * Decodes a partition's records in order: a record whose decode throws a DecodeError becomes a
 * dead letter with the reason; any other error (a registry outage) propagates, failing the batch.
 */
export async function decodeRecords(
  topic: string,
  partition: number,
  records: readonly LogRecord[],
  decode: (value: Buffer | null) => unknown,
): Promise<{ decoded: DecodedRecord[]; letters: DeadLetter[] }> {
  const decoded: DecodedRecord[] = [];
  const letters: DeadLetter[] = [];
  for (const raw of records) {
    const base = { topic, partition, offset: raw.offset, key: raw.key };
    try {
      decoded.push({ ...base, raw, value: await decode(raw.value) });
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
      letters.push({
        ...base,
        value: raw.value,
        headers: raw.headers,
        reason: error.message,
        reasonClass: error.reasonClass,
      });
    }
  }
  return { decoded, letters };
}
