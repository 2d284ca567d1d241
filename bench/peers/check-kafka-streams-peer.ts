/**
 * Checks that the Kafka Streams peer does the processor's work: 1,000 events over 4 detections,
 * 200 of them resends of an earlier id, and 21 over a fifth, in two runs of the same application
 * with its local state thrown away in between. The second run must restore the windows from the
 * changelog, sealed segments included (each of the 4 passes 100 distinct ids in the first run),
 * and emit the events the first run processed but had not emitted yet when it stopped, also for
 * the fifth detection, which gets nothing new. Every detection's records must add up to its
 * distinct ids, list each of them once, and name its distinct users.
 *
 *   ts-node --swc -r tsconfig-paths/register bench/peers/check-kafka-streams-peer.ts
 */
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import type { DetectionEventRecord } from '@vigil/contracts';
import {
  AvroCodec,
  ContractPublisher,
  TopicCatalog,
  ensureTopics,
  registerContracts,
} from '@vigil/kafka';
import {
  buildKafkaStreamsPeer,
  createPeerOutputTopic,
  deleteKafkaStreamsPeerData,
  startKafkaStreamsPeer,
  type PeerProgress,
  type PeerRun,
} from '../support/kafka-streams-peer';
import { BENCH_SERVERS } from '../support/bench-servers';

const BROKERS = BENCH_SERVERS.kafkaBrokers;
const REGISTRY = BENCH_SERVERS.schemaRegistryUrl;
const DETECTIONS = 4;
/** Events from this number on belong to a detection that gets nothing in the second run. */
const QUIET_FROM = 10_000;
const PARTITIONS = 3;
const runId = randomUUID().slice(0, 8);
const kafka = new Kafka({ brokers: BROKERS.split(','), logLevel: logLevel.NOTHING });

function eventRecord(n: number): DetectionEventRecord {
  return {
    id: `evt-${runId}-${n}`,
    detection_id: n >= QUIET_FROM ? 'det-quiet' : `det-${n % DETECTIONS}`,
    detection_name: 'Impossible travel',
    issue_type: 'impossible_travel',
    employee_email: `User${n % 7}@Example.com`,
    employee_name: `User ${n % 7}`,
    asset_name: 'okta',
    happened: Date.now() - 3_600_000 + n,
    risk_score: 5,
    source: 'okta',
    high_prevalence: false,
    allowlisted: false,
    description: n % 2 === 0 ? null : `event ${n}`,
  };
}

/** Events `from..to-1`, the i-th followed by a resend of event `resends[i]` when there is one. */
function batch(from: number, to: number, resends: number[]): DetectionEventRecord[] {
  const records: DetectionEventRecord[] = [];
  for (let n = from; n < to; n++) {
    records.push(eventRecord(n));
    const resend = resends[n - from];
    if (resend !== undefined) records.push(eventRecord(resend));
  }
  return records;
}

interface Update {
  detection_id: string;
  event_count: number;
  new_event_count: number;
  user_count: number;
  affected_users: { email: string; name: string }[];
  events: { id: string; person_name: string; description: string; happened: number }[];
}

async function readUpdates(topic: string): Promise<Update[]> {
  const consumer = kafka.consumer({
    groupId: `peer-check-${randomUUID()}`,
    readUncommitted: false,
  });
  const updates: Update[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const admin = kafka.admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets(topic);
  await admin.disconnect();
  // Transaction markers take offsets too: wait until the last offset of each partition is read.
  const ends = new Map(offsets.map((o) => [o.partition, Number(o.high)]));
  const reached = new Map<number, number>();
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  await consumer.run({
    eachBatch: async ({ batch: b }) => {
      for (const m of b.messages) updates.push(JSON.parse(m.value!.toString('utf8')) as Update);
      reached.set(b.partition, Number(b.lastOffset()) + 1);
      if ([...ends].every(([p, end]) => (reached.get(p) ?? 0) >= end - 1)) finish();
    },
  });
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  await consumer.disconnect();
  return updates;
}

async function runUntil(run: PeerRun, done: (progress: PeerProgress) => boolean): Promise<void> {
  const peer = startKafkaStreamsPeer(run);
  try {
    const progress = await peer.waitFor(done, 120_000);
    console.log(
      `  run: ${progress.processed} records, ${progress.duplicates} duplicates, ` +
        `${progress.recordsWritten} updates written, ${progress.commits} commits`,
    );
  } finally {
    await peer.stop();
  }
}

async function main(): Promise<void> {
  await buildKafkaStreamsPeer();
  const prefix = `bench-check-${runId}.`;
  const topics = new TopicCatalog(prefix, PARTITIONS);
  const input = topics.all().filter((t) => t.name === topics.detectionEvents);
  const applicationId = `${prefix}kafka-streams-peer`;
  const outputTopic = `${applicationId}-updates`;
  const run: PeerRun = {
    brokers: BROKERS,
    registryUrl: REGISTRY,
    inputTopic: topics.detectionEvents,
    outputTopic,
    applicationId,
  };
  try {
    await ensureTopics(kafka, input);
    await createPeerOutputTopic(kafka, outputTopic, PARTITIONS);
    const codec = new AvroCodec(REGISTRY);
    await registerContracts(codec, topics);
    const publisher = new ContractPublisher(kafka, codec, topics);
    await publisher.connect();

    // 500 events and 100 resends of them, then 300 more and 100 resends of the first 500: the
    // second run knows those only from the changelog (each run gets a fresh state folder).
    // A fifth detection gets 20 events and a resend in the first run only.
    const resends = (from: number) => Array.from({ length: 100 }, (_, i) => i * 5 + from);
    const first = [
      ...batch(0, 500, resends(0)),
      ...batch(QUIET_FROM, QUIET_FROM + 20, [QUIET_FROM]),
    ];
    const second = batch(500, 800, resends(1));
    await publisher.publishDetectionEvents(first);
    // The first run emits nothing (its first emit time is an hour away) and stops: the second
    // run must emit what it processed, from the changelog, the quiet detection's too.
    await runUntil({ ...run, commitIntervalMs: 3_600_000 }, (p) => p.processed >= first.length);
    await publisher.publishDetectionEvents(second);
    await runUntil(run, (p) => p.committed >= second.length);
    await publisher.disconnect();
    const sent = [...first, ...second];
    const expected = expectedDetections(sent);
    console.log(
      `sent ${sent.length} events, ${new Set(sent.map((e) => e.id)).size} distinct, ` +
        `over ${expected.size} detections`,
    );

    const updates = await readUpdates(outputTopic);
    const failures = check(updates, expected);
    for (const failure of failures) console.log(`  FAIL ${failure}`);
    const failed = new Set(failures.map((f) => f.split(':')[0])).size;
    console.log(`${expected.size - failed} passed, ${failed} failed`);
    if (failures.length > 0) process.exitCode = 1;
  } finally {
    await deleteKafkaStreamsPeerData(kafka, applicationId);
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topics.detectionEvents] }).catch(() => undefined);
    await admin.disconnect();
  }
}

interface ExpectedDetection {
  ids: Set<string>;
  users: Set<string>;
}

/** Each detection's distinct event ids and users (emails lowercased) among the sent events. */
function expectedDetections(sent: DetectionEventRecord[]): Map<string, ExpectedDetection> {
  const expected = new Map<string, ExpectedDetection>();
  for (const event of sent) {
    const detection = expected.get(event.detection_id) ?? { ids: new Set(), users: new Set() };
    detection.ids.add(event.id);
    detection.users.add(event.employee_email.toLowerCase());
    expected.set(event.detection_id, detection);
  }
  return expected;
}

/** Failures as `<detection>: what`. */
function check(updates: Update[], expected: Map<string, ExpectedDetection>): string[] {
  const failures: string[] = [];
  for (const [detectionId, { ids: expectedIds, users: expectedUsers }] of expected) {
    const own = updates.filter((u) => u.detection_id === detectionId);
    const listed = own.flatMap((u) => u.events.map((e) => e.id));
    const newSum = own.reduce((sum, u) => sum + u.new_event_count, 0);
    const last = own.at(-1);
    const fail = (what: string) => failures.push(`${detectionId}: ${what}`);
    if (!last) {
      fail('no update');
      continue;
    }
    if (last.event_count !== expectedIds.size) {
      fail(`event_count ${last.event_count}, expected ${expectedIds.size}`);
    }
    if (newSum !== expectedIds.size)
      fail(`new events add up to ${newSum}, expected ${expectedIds.size}`);
    if (listed.length !== new Set(listed).size) fail('an event is listed twice');
    if (listed.length !== expectedIds.size || !listed.every((id) => expectedIds.has(id))) {
      fail(`${listed.length} events listed, expected the ${expectedIds.size} distinct ids`);
    }
    if (own.some((u, i) => i > 0 && u.event_count !== own[i - 1].event_count + u.new_event_count)) {
      fail('an update does not add its new events to the previous count');
    }
    const users = new Set(last.affected_users.map((u) => u.email));
    if (last.user_count !== expectedUsers.size || users.size !== expectedUsers.size) {
      fail(`user_count ${last.user_count} (${users.size} listed), expected ${expectedUsers.size}`);
    }
    const derived = own
      .flatMap((u) => u.events)
      .find((e) => Number(e.id.split('-').at(-1)) % 2 === 0);
    if (derived && derived.description !== 'impossible travel on okta') {
      fail(`derived description "${derived.description}"`);
    }
  }
  return failures;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
