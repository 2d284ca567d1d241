import { randomUUID } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { createLogger } from '@vigil/config';
import { createCoordinatorCachingProducer } from './coordinator-caching-producer';
import { createKafkaClient } from './create-kafka-client';

const logger = createLogger('coordinator-cache', 'silent');
const TRANSACTIONS = 5;

jest.setTimeout(60_000);

/** Runs transactions of one record and one input offset each; counts the requests by API. */
async function runTransactions(
  kafka: Kafka,
  producerOf: (id: string) => ReturnType<Kafka['producer']>,
) {
  const topic = `coordinators-${randomUUID()}`;
  const groupId = `group-${randomUUID()}`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  const producer = producerOf(`txn-${randomUUID()}`);
  const requests = new Map<string, number>();
  producer.on(producer.events.REQUEST, ({ payload }) =>
    requests.set(payload.apiName, (requests.get(payload.apiName) ?? 0) + 1),
  );
  try {
    await producer.connect();
    for (let i = 0; i < TRANSACTIONS; i += 1) {
      const transaction = await producer.transaction();
      await transaction.send({ topic, messages: [{ key: 'k', value: `record ${i}` }] });
      await transaction.sendOffsets({
        consumerGroupId: groupId,
        topics: [{ topic, partitions: [{ partition: 0, offset: String(i + 1) }] }],
      });
      await transaction.commit();
    }
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    const ends = await admin.fetchTopicOffsets(topic);
    return { requests, committed: committed.partitions[0].offset, end: ends[0].high };
  } finally {
    await producer.disconnect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect();
  }
}

describe('createCoordinatorCachingProducer (Kafka)', () => {
  const kafka = createKafkaClient(
    { brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','), clientId: 'cache' },
    logger,
  );
  const config = (transactionalId: string) => ({
    transactionalId,
    idempotent: true,
    maxInFlightRequests: 1,
  });

  it('commits transactions with their offsets, finding each coordinator once', async () => {
    const cached = await runTransactions(kafka, (id) =>
      createCoordinatorCachingProducer(kafka, config(id)),
    );
    // Each transaction: one record and its commit marker; the group's offset is the last one sent.
    expect(cached.end).toBe(String(2 * TRANSACTIONS));
    expect(cached.committed).toBe(String(TRANSACTIONS));
    // The transaction coordinator and the group coordinator, each found once.
    expect(cached.requests.get('GroupCoordinator')).toBe(2);
    expect(cached.requests.get('EndTxn')).toBe(TRANSACTIONS);
  });

  it('spares the lookups a plain kafkajs producer makes for every transaction', async () => {
    const plain = await runTransactions(kafka, (id) => kafka.producer(config(id)));
    expect(plain.requests.get('GroupCoordinator')).toBeGreaterThanOrEqual(4 * TRANSACTIONS);
  });

  it('leaves the client’s own producers as they were', async () => {
    createCoordinatorCachingProducer(kafka, config(`txn-${randomUUID()}`));
    const plain = await runTransactions(kafka, (id) => kafka.producer(config(id)));
    expect(plain.requests.get('GroupCoordinator')).toBeGreaterThanOrEqual(4 * TRANSACTIONS);
  });
});
