import { randomUUID } from 'node:crypto';
import { AssignerProtocol, type Kafka, type PartitionAssigner } from 'kafkajs';
import type { Logger } from '@vigil/config';
import type { ChangelogEntries } from '../port/partition-handler';
import { reachedEnd, restoreTargets } from './partition-offsets';
import { restartUnless } from './restart-unless';

/**
 * Reads partitions of a compacted changelog from the beginning to their current end, read
 * committed, and returns the latest value of each key. kafkajs has no manual assignment, so a
 * throw-away consumer group is joined with an assigner that hands this single member exactly
 * the requested partitions.
 *
 * Callers fence the partitions' transactional writers first: their pending transactions are
 * then aborted or committed, so the end read here is reachable and final.
 */
export async function readChangelog(
  kafka: Kafka,
  topic: string,
  partitions: readonly number[],
  logger: Logger,
): Promise<Map<number, ChangelogEntries>> {
  const result = new Map<number, ChangelogEntries>(partitions.map((p) => [p, new Map()]));
  const admin = kafka.admin();
  await admin.connect();
  let targets: Map<number, string>;
  try {
    targets = restoreTargets(await admin.fetchTopicOffsets(topic), partitions);
  } finally {
    await admin.disconnect();
  }
  if (targets.size === 0) return result;

  const started = Date.now();
  const consumer = kafka.consumer({
    groupId: `${topic}.restore.${randomUUID()}`,
    readUncommitted: false,
    partitionAssigners: [fixedAssigner(topic, [...targets.keys()])],
    maxWaitTimeInMs: 250,
    retry: restartUnless(() => finished),
  });
  let finished = false;
  const lastRead = new Map<number, string>();
  let finish: () => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const check = () => {
    if ([...targets].every(([p, end]) => reachedEnd(lastRead.get(p), end))) finish();
  };
  // Fired for every fetched batch, including those holding only transaction markers, whose
  // offsets the handler below never sees.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    if (payload.topic !== topic || payload.lastOffset === null) return;
    lastRead.set(payload.partition, payload.lastOffset);
    check();
  });
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (!payload.restart) fail(payload.error);
  });

  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const entries = result.get(batch.partition);
        if (!entries) return;
        for (const message of batch.messages) {
          if (!message.key) continue;
          const key = message.key.toString('utf8');
          if (message.value === null) entries.delete(key);
          else entries.set(key, message.value);
        }
      },
    });
    await done;
  } finally {
    finished = true;
    await consumer.disconnect();
  }
  logger.info(
    {
      topic,
      partitions: [...targets.keys()],
      keys: [...result.values()].reduce((n, m) => n + m.size, 0),
      ms: Date.now() - started,
    },
    'changelog restored',
  );
  return result;
}

/** Gives every requested partition to the first member (the only one of a throw-away group). */
function fixedAssigner(topic: string, partitions: number[]): PartitionAssigner {
  const name = 'VigilChangelogRestore';
  return () => ({
    name,
    version: 1,
    async assign({ members }) {
      return members.map((member, index) => ({
        memberId: member.memberId,
        memberAssignment: AssignerProtocol.MemberAssignment.encode({
          version: 1,
          assignment: index === 0 ? { [topic]: partitions } : {},
          userData: Buffer.alloc(0),
        }),
      }));
    },
    protocol({ topics }) {
      return {
        name,
        metadata: AssignerProtocol.MemberMetadata.encode({
          version: 1,
          topics,
          userData: Buffer.alloc(0),
        }),
      };
    },
  });
}
