import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import type { DetectionEventRecord, InvestigationRecord } from '@vigil/contracts';
import type { ContractRecordPublisher } from '../port/contract-record-publisher';
import type { TopicCatalog } from '../port/topic-catalog';
import type { AvroCodec } from './avro-codec';
import { BrokerUnavailableError } from './broker-unavailable-error';
import { chunkBySize } from './output-chunks';

/**
 * Produces connector-facing records, Avro-encoded and keyed so that everything about one
 * detection (or investigation) lands on one partition in order. The producer is idempotent:
 * its own retries never duplicate a record.
 */
export class ContractPublisher implements ContractRecordPublisher {
  private readonly producer: Producer;

  constructor(
    kafka: Kafka,
    private readonly codec: AvroCodec,
    private readonly topics: TopicCatalog,
  ) {
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      // Murmur2, as Java clients use, so keys land on the same partitions whoever produces.
      createPartitioner: Partitioners.DefaultPartitioner,
    });
  }

  async connect(): Promise<void> {
    await this.producer.connect();
  }

  async disconnect(): Promise<void> {
    await this.producer.disconnect();
  }

  async publishDetectionEvents(events: readonly DetectionEventRecord[]): Promise<void> {
    const topic = this.topics.detectionEvents;
    const messages = await Promise.all(
      events.map(async (e) => ({ key: e.detection_id, value: await this.codec.encode(topic, e) })),
    );
    await this.send(topic, messages);
  }

  async publishInvestigations(reports: readonly InvestigationRecord[]): Promise<void> {
    const topic = this.topics.investigations;
    const messages = await Promise.all(
      reports.map(async (r) => ({ key: r.id, value: await this.codec.encode(topic, r) })),
    );
    await this.send(topic, messages);
  }

  /**
   * The records are valid and encoded by now: a failure here is Kafka's, not the caller's. The
   * broker refuses a partition's record batch over the topic's max.message.bytes (1 MB by
   * default), and a request's events may all be one detection's, on one partition: they go in
   * requests that stay under it (chunkBySize), one after the other so each partition keeps the
   * request's order.
   */
  private async send(topic: string, messages: { key: string; value: Buffer }[]): Promise<void> {
    try {
      for (const chunk of chunkBySize(messages.map((message) => ({ topic, ...message })))) {
        await this.producer.send({
          topic,
          acks: -1,
          messages: chunk.map(({ key, value }) => ({ key, value })),
        });
      }
    } catch (error) {
      throw new BrokerUnavailableError(error);
    }
  }
}
