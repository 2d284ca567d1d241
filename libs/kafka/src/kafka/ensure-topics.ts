import type { Admin, Kafka } from 'kafkajs';
import type { TopicSpec } from '../port/topic-catalog';

const LEADERS_TIMEOUT_MS = 30_000;
const LEADERS_POLL_MS = 200;

/**
 * Creates the topics that do not exist yet. Existing topics are left alone: changing the
 * partition count of a keyed topic would move keys between partitions.
 *
 * Several instances of several apps may run this at once on a fresh prefix: a topic that
 * another one created between our listing and our request is as good as ours (kafkajs reads
 * TOPIC_ALREADY_EXISTS as "nothing created"), so every topic is then looked up again until
 * each of its partitions has a leader, whoever created it. Returns the names this call created;
 * none when another instance created any of the missing ones first.
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
    const created = await admin.createTopics({
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
    if (!created)
      await waitForLeaders(
        admin,
        missing.map((t) => t.name),
      );
    return created ? missing.map((t) => t.name) : [];
  } finally {
    await admin.disconnect();
  }
}

/** Until every partition of `names` has a leader: the topics are usable, whoever created them. */
async function waitForLeaders(admin: Admin, names: string[]): Promise<void> {
  const deadline = Date.now() + LEADERS_TIMEOUT_MS;
  for (;;) {
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: names });
      const ready =
        topics.length === names.length &&
        topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
      if (ready) return;
    } catch (error) {
      // A topic still being created by another instance is not known to every broker yet.
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) {
      throw new Error(`topics have no leader after ${LEADERS_TIMEOUT_MS} ms: ${names.join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, LEADERS_POLL_MS));
  }
}
