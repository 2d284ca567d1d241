import type { IHeaders, Producer } from 'kafkajs';
import { dlqTopicOf } from '@vigil/contracts';

export interface DeadLetter {
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers?: IHeaders;
  reason: string;
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
          headers: {
            ...l.headers,
            'dlq.reason': l.reason.slice(0, 2000),
            'dlq.topic': l.topic,
            'dlq.partition': String(l.partition),
            'dlq.offset': l.offset,
            'dlq.at': new Date().toISOString(),
          },
        })),
      })),
    });
  }
}
