import { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import type { Kafka } from 'kafkajs';

/**
 * Removes what a bench made on the servers: its topics and consumer groups (named from
 * `topicPrefix`), its schema registry subjects (named after its topics), and, given
 * `elasticsearch`, its indices and index templates (named from `indexPrefix`).
 */
export async function removeBenchArtifacts(options: {
  kafka: Kafka;
  topicPrefix: string;
  registryUrl: string;
  elasticsearch?: { url: string; indexPrefix: string };
}): Promise<void> {
  const { kafka, topicPrefix, registryUrl, elasticsearch } = options;
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(topicPrefix));
    if (topics.length > 0) await admin.deleteTopics({ topics });
    const { groups } = await admin.listGroups();
    const ours = groups.map((g) => g.groupId).filter((id) => id.startsWith(topicPrefix));
    if (ours.length > 0) await admin.deleteGroups(ours).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
  if (elasticsearch) {
    const es = new ElasticsearchClient({ node: elasticsearch.url });
    const pattern = `${elasticsearch.indexPrefix}*`;
    await es.indices.delete({ index: pattern, expand_wildcards: 'all' }).catch(() => undefined);
    await es.indices.deleteIndexTemplate({ name: pattern }).catch(() => undefined);
    await es.close();
  }
  const subjects = (await (await fetch(`${registryUrl}/subjects`)).json()) as string[];
  for (const subject of subjects.filter((s) => s.startsWith(topicPrefix))) {
    await fetch(`${registryUrl}/subjects/${encodeURIComponent(subject)}`, { method: 'DELETE' });
  }
}
