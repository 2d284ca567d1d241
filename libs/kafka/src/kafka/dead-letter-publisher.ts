import type { Message, Producer } from 'kafkajs';
import { deadLetterRecord, type DeadLetter } from '../port/dead-letter';
import { chunkBySize } from './output-chunks';

/**
 * Sends a record that cannot be processed to `<topic>.dlq` with its original bytes and the
 * reason, so the partition moves on and nothing is lost.
 */
export class DeadLetterPublisher {
  constructor(private readonly producer: Producer) {}

  /**
   * A batch's letters carry its records' bytes: a batch of bad records can pass the DLQ's
   * max.message.bytes (1 MB by default), so they go in requests that stay under it.
   */
  async publish(letters: readonly DeadLetter[]): Promise<void> {
    if (letters.length === 0) return;
    const at = Date.now();
    const records = letters.map((letter) => deadLetterRecord(letter, at));
    for (const chunk of chunkBySize(records)) {
      const byTopic = new Map<string, Message[]>();
      for (const { topic, ...message } of chunk) {
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
}
