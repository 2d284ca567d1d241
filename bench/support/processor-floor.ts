import { randomUUID } from 'node:crypto';
import { type Batch, CompressionTypes, type Kafka, type Message, type Producer } from 'kafkajs';
import {
  type AvroCodec,
  type TopicCatalog,
  chunkBySize,
  createTransactionalProducer,
  offsetsToCommit,
} from '@vigil/kafka';

/** The value of the floor's one record per transaction (oneRecordTo). */
const ONE_RECORD = Buffer.alloc(8);

/** One record the stream processor wrote. */
export interface WrittenRecord {
  topic: string;
  key: string;
  value: Buffer | null;
  partition: number;
}

/** Every record the processor wrote (commands and state) on `topics`, read committed. */
export async function processorOutputs(
  kafka: Kafka,
  topics: TopicCatalog,
): Promise<WrittenRecord[]> {
  const admin = kafka.admin();
  await admin.connect();
  const wanted = [topics.notificationCommands, topics.detectionState];
  let expected = 0;
  for (const topic of wanted) {
    for (const { high, low } of await admin.fetchTopicOffsets(topic)) {
      expected += Number(high) - Number(low);
    }
  }
  await admin.disconnect();
  const consumer = kafka.consumer({ groupId: `bench-outputs-${randomUUID()}` });
  const records: WrittenRecord[] = [];
  let seen = 0;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  await consumer.connect();
  await consumer.subscribe({ topics: wanted, fromBeginning: true });
  await consumer.run({
    eachBatch: async ({ batch }) => {
      // Transaction markers take offsets too: count the last offset reached, not records.
      seen += Number(batch.lastOffset()) - Number(batch.firstOffset() ?? batch.lastOffset()) + 1;
      for (const m of batch.messages) {
        records.push({
          topic: batch.topic,
          key: m.key?.toString('utf8') ?? '',
          value: m.value,
          partition: batch.partition,
        });
      }
      if (seen >= expected) finish();
    },
  });
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  await consumer.disconnect();
  return records;
}

/** How many records each partition of `topic` holds (a topic written without transactions). */
export async function recordsByPartition(
  kafka: Kafka,
  topic: string,
): Promise<Map<number, number>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return new Map(
      offsets.map(({ partition, high, low }) => [partition, Number(high) - Number(low)]),
    );
  } finally {
    await admin.disconnect();
  }
}

/** Decodes every record of `batch`, as the processor does before any work of its own. */
export async function decodeAll(codec: AvroCodec, batch: Batch): Promise<unknown[]> {
  const values: unknown[] = [];
  for (const message of batch.messages) {
    const known = codec.decodeKnown(message.value);
    values.push(known ? known.value : await codec.decode(message.value));
  }
  return values;
}

export interface ProcessorFloorOptions {
  codec: AvroCodec;
  /** The processor's output for the whole input, in the order it was written. */
  records: readonly WrittenRecord[];
  /**
   * How many events each input partition holds: a batch writes its share of the records of
   * the same-numbered output partitions (the processor's output is co-partitioned with its
   * input: both are keyed by detection).
   */
  inputEventsByPartition: ReadonlyMap<number, number>;
  /** The topics written, with their largest message (chunks of a transaction stay below it). */
  topics: TopicCatalog;
  /** The consumer group whose offsets the transactions commit. */
  groupId: string;
  /** The output's compression: the processor's (gzip) unless a bench compares another. */
  compression?: CompressionTypes;
  /** Where a record of `records` goes: its own topic unless the floor writes to other ones. */
  topicOf?: (record: WrittenRecord) => string;
  /**
   * Work done on each batch's decoded values before its transaction (none for the floor;
   * MinimalDetectionWork for the least a processor writing this output must do).
   */
  work?: (batch: Batch, values: readonly unknown[]) => void;
  /**
   * Instead of the processor's records, one record of a few bytes per transaction to this topic
   * (the batch's partition of it): what a transaction with any output costs, its bytes aside.
   */
  oneRecordTo?: string;
}

/**
 * The floor under any processor of this design: decode each input batch, then write the
 * batch's share of the records the processor wrote (the same bytes, to the same partitions) in
 * one transaction with the batch's offsets, one transactional producer per input partition, as
 * the processor does; and nothing else.
 */
export class ProcessorFloor {
  private readonly producers = new Map<number, Producer>();
  /** The records to write per output topic, then per partition. */
  private readonly byOutput = new Map<string, Map<number, WrittenRecord[]>>();
  /** How many of each output partition's records are written (per topic, per partition). */
  private readonly written = new Map<string, number>();
  private readonly handledByPartition = new Map<number, number>();
  private readonly limits: Map<string, number>;
  private committed = 0;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: ProcessorFloorOptions,
  ) {
    const topicOf = options.topicOf ?? ((record: WrittenRecord) => record.topic);
    for (const record of options.records) {
      const topic = topicOf(record);
      const partitions = this.byOutput.get(topic) ?? new Map<number, WrittenRecord[]>();
      const records = partitions.get(record.partition) ?? [];
      records.push({ ...record, topic });
      partitions.set(record.partition, records);
      this.byOutput.set(topic, partitions);
    }
    this.limits = new Map(
      options.topics
        .all()
        .filter((t) => t.maxMessageBytes !== undefined)
        .map((t) => [t.name, t.maxMessageBytes!]),
    );
  }

  /** How many input events the floor has handled, their transaction committed. */
  get eventsCommitted(): number {
    return this.committed;
  }

  async handle(batch: Batch): Promise<void> {
    const values = await decodeAll(this.options.codec, batch);
    this.options.work?.(batch, values);
    let producer = this.producers.get(batch.partition);
    if (!producer) {
      // The processor's producer (TransactionalProcessor): coordinators cached, and quick
      // retries of CONCURRENT_TRANSACTIONS, which a transaction right after a commit meets.
      producer = createTransactionalProducer(
        this.kafka,
        `${this.options.groupId}.${batch.partition}`,
      );
      await producer.connect();
      this.producers.set(batch.partition, producer);
    }
    // This batch's share of the records the processor wrote to its partition of each topic,
    // as the processor does: one output partition per topic in each transaction (taken
    // without a pause, so batches handled at once share no record).
    const { partition } = batch;
    const handled = (this.handledByPartition.get(partition) ?? 0) + batch.messages.length;
    this.handledByPartition.set(partition, handled);
    const inputEvents = this.options.inputEventsByPartition.get(partition) ?? handled;
    const share: WrittenRecord[] = [];
    if (this.options.oneRecordTo !== undefined) {
      share.push({ topic: this.options.oneRecordTo, key: 'floor', value: ONE_RECORD, partition });
    }
    for (const [topic, partitions] of this.byOutput) {
      const records = partitions.get(partition) ?? [];
      const key = `${topic}|${partition}`;
      const from = this.written.get(key) ?? 0;
      const upTo = Math.round(Math.min(1, handled / inputEvents) * records.length);
      share.push(...records.slice(from, upTo));
      this.written.set(key, upTo);
    }
    const transaction = await producer.transaction();
    try {
      for (const chunk of chunkBySize(share, this.limits)) {
        const byTopic = new Map<string, Message[]>();
        for (const { topic, key, value, partition } of chunk) {
          const messages = byTopic.get(topic) ?? [];
          messages.push({ key, value, partition });
          byTopic.set(topic, messages);
        }
        await transaction.sendBatch({
          topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
          acks: -1,
          compression: this.options.compression ?? CompressionTypes.GZIP,
        });
      }
      await transaction.sendOffsets({
        consumerGroupId: this.options.groupId,
        topics: offsetsToCommit([
          { topic: batch.topic, partition: batch.partition, lastOffset: batch.lastOffset() },
        ]),
      });
      await transaction.commit();
    } catch (error) {
      // Left open, the transaction would fail every retry of the batch ("already ongoing").
      // The retry takes the next share: the floor writes no record twice, and at most a
      // failed batch's share less in all.
      await transaction.abort().catch(() => undefined);
      throw error;
    }
    this.committed += batch.messages.length;
  }

  async close(): Promise<void> {
    await Promise.all([...this.producers.values()].map((p) => p.disconnect()));
  }
}
