import type { Admin } from 'kafkajs';

export interface ConsumerGroupTopic {
  groupId: string;
  topic: string;
}

/**
 * Records of `topic` the group has not committed yet: the sum over partitions of the high
 * watermark minus the committed offset (the low watermark when nothing is committed).
 * Transaction markers count too, so a group that read everything of a transactional topic may
 * show up to one record per partition.
 */
export async function consumerLag(admin: Admin, { groupId, topic }: ConsumerGroupTopic) {
  const [ends, [committed]] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    admin.fetchOffsets({ groupId, topics: [topic] }),
  ]);
  const committedOf = new Map(
    (committed?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]),
  );
  return ends.reduce((lag, end) => {
    const at = committedOf.get(end.partition) ?? -1;
    // The two reads are not atomic: a commit between them must not count as negative lag.
    return lag + Math.max(0, Number(end.high) - (at >= 0 ? at : Number(end.low)));
  }, 0);
}
