import type { IHeaders, Producer } from 'kafkajs';
import { dlqTopicOf } from '@vigil/contracts';
import type { DecodedRecord } from './decoded-batch-consumer';

export interface DeadLetter {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers?: IHeaders;
  reason: string;
}

/** The dead letter of a record a handler refused: its original bytes and headers. */
export function deadLetterOf(record: DecodedRecord, reason: string): DeadLetter {
  return {
    topic: record.topic,
    partition: record.partition,
    offset: record.offset,
    key: record.key,
    value: record.raw.value,
    headers: record.raw.headers,
    reason,
  };
}

/** The original headers plus where the record came from and why it is in the DLQ. */
export function deadLetterHeaders(letter: DeadLetter, at: number): IHeaders {
  return {
    ...letter.headers,
    'dlq.reason': letter.reason.slice(0, 2000),
    'dlq.topic': letter.topic,
    'dlq.partition': String(letter.partition),
    'dlq.offset': letter.offset,
    'dlq.at': new Date(at).toISOString(),
  };
}

/**
 * Sends a record that cannot be processed to `<topic>.dlq` with its original bytes and the
 * reason, so the partition moves on and nothing is lost.
 */
export class DeadLetterPublisher {
  constructor(private readonly producer: Producer) {}

  async publish(letters: readonly DeadLetter[]): Promise<void> {
    if (letters.length === 0) return;
    const byTopic = new Map<string, DeadLetter[]>();
    for (const letter of letters) {
      const list = byTopic.get(letter.topic) ?? [];
      list.push(letter);
      byTopic.set(letter.topic, list);
    }
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, list]) => ({
        topic: dlqTopicOf(topic),
        messages: list.map((l) => ({
          key: l.key,
          value: l.value,
          headers: deadLetterHeaders(l, Date.now()),
        })),
      })),
    });
  }
}
