import type { Message, Producer } from 'kafkajs';
import { deadLetterRecord, type DeadLetter } from '../port/dead-letter';

/**
 * Sends a record that cannot be processed to `<topic>.dlq` with its original bytes and the
 * reason, so the partition moves on and nothing is lost.
 */
export class DeadLetterPublisher {
  constructor(private readonly producer: Producer) {}

  async publish(letters: readonly DeadLetter[]): Promise<void> {
    if (letters.length === 0) return;
    const byTopic = new Map<string, Message[]>();
    for (const letter of letters) {
      const { topic, ...message } = deadLetterRecord(letter, Date.now());
      const messages = byTopic.get(topic) ?? [];
      messages.push(message);
      byTopic.set(topic, messages);
    }
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
    });
  }
}
