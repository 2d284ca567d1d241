import type { KafkaMessage } from 'kafkajs';
import { dlqTopicOf } from '@vigil/contracts';
import { DecodeError } from './avro-codec';
import { deadLetterHeaders, type DeadLetter } from './dead-letter-publisher';
import type { DecodedRecord } from './decoded-batch-consumer';
import type { StoredRecord } from './log-frame';
import type { RecordToAppend } from './partitioned-log';

/** A stored record in the shape kafkajs hands to consumers, so handlers see no difference. */
export function toKafkaMessage(record: StoredRecord): KafkaMessage {
  return {
    key: record.key,
    value: record.value,
    headers: record.headers,
    offset: String(record.offset),
    timestamp: String(record.timestamp),
    attributes: 0,
  };
}

/** Decodes a partition's records; undecodable ones become dead letters, other errors propagate. */
export async function decodeRecords(
  topic: string,
  partition: number,
  records: readonly StoredRecord[],
  decode: (value: Buffer | null) => unknown,
): Promise<{ decoded: DecodedRecord[]; letters: DeadLetter[] }> {
  const decoded: DecodedRecord[] = [];
  const letters: DeadLetter[] = [];
  for (const record of records) {
    const raw = toKafkaMessage(record);
    const base = { topic, partition, offset: raw.offset, key: raw.key };
    try {
      decoded.push({ ...base, raw, value: await decode(raw.value) });
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
      letters.push({ ...base, value: raw.value, headers: raw.headers, reason: error.message });
    }
  }
  return { decoded, letters };
}

/** The DeadLetterPublisher's record shape: original bytes and headers plus the reason. */
export function deadLetterRecords(letters: readonly DeadLetter[], at: number): RecordToAppend[] {
  return letters.map((l) => ({
    topic: dlqTopicOf(l.topic),
    key: l.key,
    value: l.value,
    headers: deadLetterHeaders(l, at),
  }));
}
