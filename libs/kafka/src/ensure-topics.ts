import type { Kafka } from 'kafkajs';
import type { TopicSpec } from './topic-catalog';

/**
 * Creates the topics that do not exist yet. Existing topics are left alone: changing the
 * partition count of a keyed topic would move keys between partitions.
 */
export async function ensureTopics(
  kafka: Kafka,
  topics: readonly TopicSpec[],
  replicationFactor = 1,
): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t.name));
    if (missing.length === 0) return [];
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((t) => ({
        topic: t.name,
        numPartitions: t.partitions,
        replicationFactor,
        configEntries: [
          ...(t.compacted
            ? [
                { name: 'cleanup.policy', value: 'compact' },
                { name: 'min.compaction.lag.ms', value: '60000' },
              ]
            : []),
          ...(t.maxMessageBytes
            ? [{ name: 'max.message.bytes', value: String(t.maxMessageBytes) }]
            : []),
        ],
      })),
    });
    return missing.map((t) => t.name);
  } finally {
    await admin.disconnect();
  }
}
