import type { Admin, Kafka } from 'kafkajs';
import { settleWithin } from '@vigil/config';
import type { ReadinessCheck } from '@vigil/ops';
import type { BatchConsumer, DecodedBatchConsumerSpec } from '../port/batch-consumer';
import type { ContractRecordPublisher } from '../port/contract-record-publisher';
import type { MessageLog } from '../port/message-log';
import type { PartitionLag } from '../port/partition-lag';
import type { PartitionProcessor, PartitionProcessorSpec } from '../port/partition-processor';
import type { TopicCatalog, TopicSpec } from '../port/topic-catalog';
import { AvroCodec } from './avro-codec';
import { ContractPublisher } from './contract-publisher';
import { DecodedBatchConsumer } from './decoded-batch-consumer';
import { ensureTopics } from './ensure-topics';
import { partitionLags } from './partition-offsets';
import { TransactionalProcessor } from './transactional-processor';

/** How long close() waits for admin work under way: a request's time on a reachable broker. */
const CLOSE_WAIT_MS = 5_000;

/** The MessageLog port on Kafka and the schema registry: the classes the apps used directly. */
export class KafkaMessageLog implements MessageLog {
  readonly kind = 'kafka' as const;
  readonly codec: AvroCodec;
  /** For lag and readiness: connected on first use, dropped after any failure. */
  private admin: Promise<Admin> | null = null;
  /** Admin work under way, which close() lets finish before it disconnects. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    readonly kafka: Kafka,
    private readonly schemaRegistryUrl: string,
  ) {
    this.codec = new AvroCodec(schemaRegistryUrl);
  }

  ensureTopics(topics: readonly TopicSpec[], replicationFactor = 1): Promise<string[]> {
    return ensureTopics(this.kafka, topics, replicationFactor);
  }

  createContractPublisher(topics: TopicCatalog): ContractRecordPublisher {
    return new ContractPublisher(this.kafka, this.codec, topics);
  }

  createDecodedBatchConsumer(spec: DecodedBatchConsumerSpec): BatchConsumer {
    return new DecodedBatchConsumer({ ...spec, kafka: this.kafka, codec: this.codec });
  }

  createTransactionalProcessor(spec: PartitionProcessorSpec): PartitionProcessor {
    return new TransactionalProcessor({ ...spec, kafka: this.kafka, codec: this.codec });
  }

  async consumerLag(groupId: string, topics: readonly string[]): Promise<PartitionLag[]> {
    return this.withAdmin(async (admin) => {
      const committed = await admin.fetchOffsets({ groupId, topics: [...topics] });
      const lags: PartitionLag[] = [];
      for (const topic of topics) {
        const ends = await admin.fetchTopicOffsets(topic);
        const group = committed.find((c) => c.topic === topic)?.partitions ?? [];
        for (const { partition, lag } of partitionLags(ends, group)) {
          lags.push({ topic, partition, lag });
        }
      }
      return lags;
    });
  }

  readinessChecks(options: { schemaRegistry?: boolean } = {}): ReadinessCheck[] {
    const kafka: ReadinessCheck = {
      dependency: 'kafka',
      check: () => this.withAdmin(async (admin) => void (await admin.describeCluster())),
    };
    if (options.schemaRegistry === false) return [kafka];
    const registry: ReadinessCheck = {
      dependency: 'schema-registry',
      check: async (signal) => {
        const response = await fetch(`${this.schemaRegistryUrl}/config`, { signal });
        await response.body?.cancel();
        if (!response.ok) throw new Error(`the schema registry answered ${response.status}`);
      },
    };
    return [kafka, registry];
  }

  /**
   * Producers and consumers close with their own stop(); the admin client closes here, once the
   * work under way on it (a lag refresh, a readiness check) has ended or CLOSE_WAIT_MS passed.
   * Nothing starts on it afterwards.
   */
  async close(): Promise<void> {
    this.closed = true;
    await settleWithin(this.inFlight, CLOSE_WAIT_MS);
    const admin = this.admin;
    this.admin = null;
    await admin?.then((a) => a.disconnect()).catch(() => undefined);
  }

  private async withAdmin<T>(work: (admin: Admin) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('the Kafka message log is closed');
    const running = this.adminWork(work);
    this.inFlight.add(running);
    try {
      return await running;
    } finally {
      this.inFlight.delete(running);
    }
  }

  private async adminWork<T>(work: (admin: Admin) => Promise<T>): Promise<T> {
    if (!this.admin) {
      // No retries of its own: the caller asks again on its next turn.
      const admin = this.kafka.admin({ retry: { retries: 0 } });
      this.admin = admin.connect().then(() => admin);
    }
    const pending = this.admin;
    try {
      return await work(await pending);
    } catch (error) {
      if (this.admin === pending) this.admin = null;
      void pending.then((a) => a.disconnect()).catch(() => undefined);
      throw error;
    }
  }
}
