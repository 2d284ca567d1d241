import { randomUUID } from 'node:crypto';
import { ConfigResourceTypes } from 'kafkajs';
import { createLogger } from '@vigil/config';
import { detectionEventSchema, dlqTopicOf, valueSubjectOf } from '@vigil/contracts';
import { TopicCatalog } from '../port/topic-catalog';
import { AvroCodec } from './avro-codec';
import { createKafkaClient } from './create-kafka-client';
import { ensureTopics } from './ensure-topics';

const REGISTRY = process.env.SCHEMA_REGISTRY_URL ?? 'http://127.0.0.1:8081/apis/ccompat/v7';
const INSTANCES = 6;
const logger = createLogger('concurrent-setup', 'silent');

jest.setTimeout(60_000);

async function registryGet<T>(path: string): Promise<T> {
  return (await (await fetch(`${REGISTRY}${path}`)).json()) as T;
}

describe('topics and schemas set up by several instances at once', () => {
  it('creates each topic once, and every instance finds every partition led', async () => {
    const topics = new TopicCatalog(`${process.env.VIGIL_TOPIC_PREFIX}${randomUUID()}.`, 3);
    const kafka = createKafkaClient(
      { brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','), clientId: 'setup' },
      logger,
    );
    const created = await Promise.all(
      Array.from({ length: INSTANCES }, () => ensureTopics(kafka, topics.all())),
    );
    expect(created.flat().length).toBeLessThanOrEqual(topics.all().length);
    const admin = kafka.admin();
    await admin.connect();
    try {
      const metadata = await admin.fetchTopicMetadata({ topics: topics.all().map((t) => t.name) });
      expect(metadata.topics.map((t) => t.partitions.every((p) => p.leader >= 0))).toEqual(
        topics.all().map(() => true),
      );
      // Topics that take records over the broker's 1 MB, their DLQs with them.
      const sized = topics.all().filter((t) => t.maxMessageBytes !== undefined);
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: sized.map((t) => ({
          type: ConfigResourceTypes.TOPIC,
          name: t.name,
          configNames: ['max.message.bytes'],
        })),
      });
      expect(
        Object.fromEntries(resources.map((r) => [r.resourceName, r.configEntries[0].configValue])),
      ).toEqual(Object.fromEntries(sized.map((t) => [t.name, String(t.maxMessageBytes)])));
      expect(sized.map((t) => t.name)).toContain(dlqTopicOf(topics.notificationCommands));
    } finally {
      await admin.disconnect();
    }
  });

  it('registers a schema once under BACKWARD, every instance getting its id', async () => {
    const topic = `setup-${randomUUID()}`;
    const subject = encodeURIComponent(valueSubjectOf(topic));
    const ids = await Promise.all(
      Array.from({ length: INSTANCES }, () =>
        new AvroCodec(REGISTRY).register(topic, detectionEventSchema),
      ),
    );
    expect(new Set(ids).size).toBe(1);
    const config = await registryGet<{ compatibilityLevel: string }>(`/config/${subject}`);
    expect(config.compatibilityLevel).toBe('BACKWARD');
    const latest = await registryGet<{ id: number }>(`/subjects/${subject}/versions/latest`);
    expect(latest.id).toBe(ids[0]);
  });

  it('refuses a schema that breaks BACKWARD compatibility, with the registry’s reason', async () => {
    const topic = `setup-${randomUUID()}`;
    await new AvroCodec(REGISTRY).register(topic, detectionEventSchema);
    const incompatible = {
      ...detectionEventSchema,
      fields: [{ name: 'required_new', type: 'string' }],
    };
    await expect(new AvroCodec(REGISTRY).register(topic, incompatible)).rejects.toThrow(/409/);
  });
});
