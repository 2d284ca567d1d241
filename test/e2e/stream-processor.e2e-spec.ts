import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer, type Producer } from 'kafkajs';
import type { RunningApp } from '@vigil/config';
import {
  SqlNotificationSettingsStore,
  createPgSqlClient,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import { dlqTopicOf, type DetectionEventRecord, type NotificationCommand } from '@vigil/contracts';
import {
  AvroCodec,
  ContractPublisher,
  TopicCatalog,
  ensureTopics,
  registerContracts,
} from '@vigil/kafka';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  type DetectionState,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { startStreamProcessor } from '../../apps/stream-processor/src/start-stream-processor';
import { eventually } from '../support/http-client';
import { commandsInRecord } from '../support/notification-commands';

jest.setTimeout(120_000);

const env = { ...process.env, PROCESSOR_TIMER_INTERVAL_MS: '250' };
const run = randomUUID().slice(0, 8);
const detection = (name: string) => `det-${name}-${run}`;

const IMMEDIATE = detection('immediate');
const THRESHOLD = detection('threshold');
const BATCH = detection('batch');
const SILENCED = detection('silenced');
const SNOOZED = detection('snoozed');
const INVALID = detection('invalid');
const RESTARTED = [1, 2, 3].map((n) => detection(`restart${n}`));
const REBALANCED = [1, 2, 3].map((n) => detection(`rebalance${n}`));

function settings(overrides: Partial<NotificationSettings> = {}): NotificationSettings {
  return {
    ...DEFAULT_NOTIFICATION_SETTINGS,
    emailEnabled: true,
    recipients: ['soc@example.com'],
    webhookEnabled: true,
    webhookProviderIds: ['provider-1'],
    frequency: 'immediate',
    ...overrides,
  };
}

const webhookOnly = () => settings({ emailEnabled: false, recipients: [] });

let sequence = 0;
function events(detectionId: string, count: number): DetectionEventRecord[] {
  return Array.from({ length: count }, () => {
    sequence += 1;
    return {
      id: `evt-${randomUUID()}`,
      detection_id: detectionId,
      detection_name: 'Impossible travel',
      issue_type: 'impossible_travel',
      employee_email: `user${sequence % 4}@example.com`,
      employee_name: `User ${sequence % 4}`,
      asset_name: 'okta',
      happened: Date.now() - 60_000 + sequence,
      risk_score: 7.5,
      source: 'okta',
      high_prevalence: false,
      allowlisted: false,
      description: null,
    };
  });
}

describe('stream processor: events → one transaction → commands and state', () => {
  const topics = new TopicCatalog(
    process.env.VIGIL_TOPIC_PREFIX!,
    Number(process.env.VIGIL_TOPIC_PARTITIONS),
  );
  const kafka = new Kafka({
    brokers: process.env.KAFKA_BROKERS!.split(','),
    logLevel: logLevel.NOTHING,
  });
  const codec = new AvroCodec(process.env.SCHEMA_REGISTRY_URL!);
  let sql: SqlClient;
  let store: SqlNotificationSettingsStore;
  let publisher: ContractPublisher;
  let rawProducer: Producer;
  let reader: Consumer;
  let processor: RunningApp;
  const others: RunningApp[] = [];

  const commands: NotificationCommand[] = [];
  const states = new Map<string, DetectionState[]>();
  const deadLetters: { key: string; reason: string }[] = [];

  const commandsOf = (detectionId: string) =>
    commands.filter(
      (c) =>
        ('detectionId' in c.decision && c.decision.detectionId === detectionId) ||
        ('investigationId' in c.decision && c.decision.detectionId === detectionId),
    );
  const summary = (c: NotificationCommand) => {
    const d = c.decision as { kind: string; previousCount: number; currentCount: number };
    return {
      kind: d.kind,
      previousCount: d.previousCount,
      currentCount: d.currentCount,
      eventCount: (d as { eventCount?: number }).eventCount,
    };
  };
  const untilCommands = (detectionId: string, count: number) =>
    eventually(async () => (commandsOf(detectionId).length >= count ? true : undefined));
  const untilStateCount = (detectionId: string, count: number) =>
    eventually(async () =>
      (states.get(detectionId) ?? []).some((s) => s.count === count) ? true : undefined,
    );

  beforeAll(async () => {
    await ensureTopics(kafka, topics.all());
    await registerContracts(codec, topics);
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    await runMigrations(sql);
    store = new SqlNotificationSettingsStore(sql);
    const custom = (s: NotificationSettings) => ({ useCustom: true, custom: s });
    // Configured before the processor starts, so its first read already has them.
    await store.saveDetectionConfig(IMMEDIATE, custom(settings()));
    await store.saveDetectionConfig(
      THRESHOLD,
      custom(settings({ frequency: 'threshold', threshold: 3 })),
    );
    await store.saveDetectionConfig(BATCH, custom(settings({ frequency: 'batch' })));
    await store.saveDetectionConfig(
      SILENCED,
      custom({ ...webhookOnly(), silence: { kind: 'disabled' } }),
    );
    await store.saveDetectionConfig(INVALID, custom(webhookOnly()));
    for (const id of [...RESTARTED, ...REBALANCED]) {
      await store.saveDetectionConfig(id, custom(webhookOnly()));
    }

    publisher = new ContractPublisher(kafka, codec, topics);
    await publisher.connect();
    rawProducer = kafka.producer();
    await rawProducer.connect();

    reader = kafka.consumer({ groupId: `reader-${run}`, readUncommitted: false });
    await reader.connect();
    await reader.subscribe({
      topics: [
        topics.notificationCommands,
        topics.detectionState,
        dlqTopicOf(topics.detectionEvents),
      ],
      fromBeginning: true,
    });
    await reader.run({
      eachMessage: async ({ topic, message }) => {
        const key = message.key?.toString() ?? '';
        if (topic === topics.notificationCommands) {
          commands.push(...commandsInRecord(message.value));
        } else if (topic === topics.detectionState) {
          const list = states.get(key) ?? [];
          list.push(JSON.parse(message.value!.toString()) as DetectionState);
          states.set(key, list);
        } else {
          deadLetters.push({ key, reason: message.headers?.['dlq.reason']?.toString() ?? '' });
        }
      },
    });

    processor = await startStreamProcessor(env);
  });

  afterAll(async () => {
    await processor?.stop();
    for (const app of others) await app.stop();
    await reader?.disconnect();
    await publisher?.disconnect();
    await rawProducer?.disconnect();
    await sql?.close();
  });

  it('Immediate: a webhook and an email per recalculation with exact counts, nothing for a resend', async () => {
    const first = events(IMMEDIATE, 3);
    await publisher.publishDetectionEvents(first);
    await untilCommands(IMMEDIATE, 2);

    const second = events(IMMEDIATE, 2);
    await publisher.publishDetectionEvents([...second, first[0]]);
    await untilCommands(IMMEDIATE, 4);

    // A connector retry of everything, then one new event: only the new one is reported.
    await publisher.publishDetectionEvents([...first, ...second]);
    await publisher.publishDetectionEvents(events(IMMEDIATE, 1));
    await untilCommands(IMMEDIATE, 6);

    expect(commandsOf(IMMEDIATE).map(summary)).toEqual([
      { kind: 'webhook', previousCount: 0, currentCount: 3, eventCount: 3 },
      { kind: 'email', previousCount: 0, currentCount: 3, eventCount: 3 },
      { kind: 'webhook', previousCount: 3, currentCount: 5, eventCount: 2 },
      { kind: 'email', previousCount: 3, currentCount: 5, eventCount: 2 },
      { kind: 'webhook', previousCount: 5, currentCount: 6, eventCount: 1 },
      { kind: 'email', previousCount: 5, currentCount: 6, eventCount: 1 },
    ]);
    const [webhook] = commandsOf(IMMEDIATE);
    expect(webhook.decision).toMatchObject({
      detectionId: IMMEDIATE,
      providerIds: ['provider-1'],
      userCount: 3,
    });
    expect((webhook.decision as { events: unknown[] }).events).toHaveLength(3);
  });

  it('Threshold: nothing at or below the threshold, one notification above, then only when it rises', async () => {
    await publisher.publishDetectionEvents(events(THRESHOLD, 2));
    await untilStateCount(THRESHOLD, 2);
    await publisher.publishDetectionEvents(events(THRESHOLD, 1));
    await untilStateCount(THRESHOLD, 3);
    const fourth = events(THRESHOLD, 1);
    await publisher.publishDetectionEvents(fourth);
    await untilCommands(THRESHOLD, 2);
    await publisher.publishDetectionEvents(fourth);
    await publisher.publishDetectionEvents(events(THRESHOLD, 1));
    await untilCommands(THRESHOLD, 4);

    expect(commandsOf(THRESHOLD).map(summary)).toEqual([
      { kind: 'webhook', previousCount: 0, currentCount: 4, eventCount: 4 },
      { kind: 'email', previousCount: 0, currentCount: 4, eventCount: 4 },
      { kind: 'webhook', previousCount: 4, currentCount: 5, eventCount: 1 },
      { kind: 'email', previousCount: 4, currentCount: 5, eventCount: 1 },
    ]);
  });

  it('Batch: webhooks fire at once and the email side becomes a digest entry of the window', async () => {
    await publisher.publishDetectionEvents(events(BATCH, 2));
    await untilCommands(BATCH, 2);

    const [webhook, entry] = commandsOf(BATCH);
    expect(summary(webhook)).toEqual({
      kind: 'webhook',
      previousCount: 0,
      currentCount: 2,
      eventCount: 2,
    });
    const hour = 60 * 60_000;
    expect(entry.decision).toMatchObject({
      kind: 'digest-entry',
      recipients: ['soc@example.com'],
      windowNewCount: 2,
      currentCount: 2,
    });
    const { windowStart, windowEnd, decidedAt } = entry.decision as {
      windowStart: number;
      windowEnd: number;
      decidedAt: number;
    };
    expect(windowStart % hour).toBe(0);
    expect(windowEnd - windowStart).toBe(hour);
    expect(decidedAt).toBeGreaterThanOrEqual(windowStart);
    expect(decidedAt).toBeLessThan(windowEnd);
  });

  it('a silenced detection sends nothing; unsilencing it reports every event since, without new events', async () => {
    await publisher.publishDetectionEvents(events(SILENCED, 3));
    await untilStateCount(SILENCED, 3);
    expect(commandsOf(SILENCED)).toEqual([]);

    await store.saveDetectionConfig(SILENCED, { useCustom: true, custom: webhookOnly() });
    await untilCommands(SILENCED, 1);
    expect(commandsOf(SILENCED).map(summary)).toEqual([
      { kind: 'webhook', previousCount: 0, currentCount: 3, eventCount: 3 },
    ]);

    await publisher.publishDetectionEvents(events(SILENCED, 1));
    await untilCommands(SILENCED, 2);
    expect(summary(commandsOf(SILENCED)[1])).toMatchObject({ previousCount: 3, currentCount: 4 });
  });

  it('a snooze that ends fires from the timer, with no new events', async () => {
    // Inherits the global settings (nobody to notify) while the events arrive.
    await publisher.publishDetectionEvents(events(SNOOZED, 3));
    await untilStateCount(SNOOZED, 3);
    const until = Date.now() + 2_000;
    await store.saveDetectionConfig(SNOOZED, {
      useCustom: true,
      custom: { ...webhookOnly(), silence: { kind: 'snoozed', until } },
    });

    await untilCommands(SNOOZED, 1);
    const [command] = commandsOf(SNOOZED);
    expect(summary(command)).toEqual({
      kind: 'webhook',
      previousCount: 0,
      currentCount: 3,
      eventCount: 3,
    });
    expect(command.decision.decidedAt).toBeGreaterThanOrEqual(until);
  });

  it('sends an undecodable and an invalid record to the DLQ and keeps processing the partition', async () => {
    await rawProducer.send({
      topic: topics.detectionEvents,
      messages: [{ key: INVALID, value: Buffer.from('{"not":"avro"}') }],
    });
    const [bad] = events(INVALID, 1);
    await publisher.publishDetectionEvents([{ ...bad, employee_email: 'not-an-email' }]);
    await publisher.publishDetectionEvents(events(INVALID, 2));
    await untilCommands(INVALID, 1);

    expect(commandsOf(INVALID).map(summary)).toEqual([
      { kind: 'webhook', previousCount: 0, currentCount: 2, eventCount: 2 },
    ]);
    await eventually(async () =>
      deadLetters.filter((l) => l.key === INVALID).length === 2 ? true : undefined,
    );
    const reasons = deadLetters.filter((l) => l.key === INVALID).map((l) => l.reason);
    expect(reasons[0]).toMatch(/wire format|undecodable/);
    expect(reasons[1]).toMatch(/employee_email/);
  });

  /** Every event counted once and reported once: the webhook deltas add up to the final count. */
  function expectExactlyOnce(detectionIds: string[], total: number) {
    for (const id of detectionIds) {
      const webhooks = commandsOf(id).map((c) => summary(c));
      expect(webhooks.reduce((sum, w) => sum + (w.eventCount ?? 0), 0)).toBe(total);
      webhooks.forEach((w, i) =>
        expect(w.previousCount).toBe(i === 0 ? 0 : webhooks[i - 1].currentCount),
      );
    }
    const ids = commands.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  }

  const lastCount = (id: string) => commandsOf(id).at(-1)?.decision;
  const untilReported = (ids: string[], total: number) =>
    eventually(
      async () =>
        ids.every(
          (id) => (lastCount(id) as { currentCount?: number } | undefined)?.currentCount === total,
        )
          ? true
          : undefined,
      { timeoutMs: 60_000 },
    );

  it('restores state after a restart mid-stream: nothing duplicated, nothing lost', async () => {
    const rounds = 6;
    const perRound = 2;
    for (let round = 0; round < rounds; round++) {
      await publisher.publishDetectionEvents(RESTARTED.flatMap((id) => events(id, perRound)));
      // The first instance has committed state before it is stopped with events in flight.
      if (round === 1) await untilReported(RESTARTED, 2 * perRound);
      if (round === 2) await processor.stop();
      if (round === 3) processor = await startStreamProcessor(env);
    }
    await untilReported(RESTARTED, rounds * perRound);
    expectExactlyOnce(RESTARTED, rounds * perRound);
  });

  it('hands partitions over between two instances through a rebalance: nothing duplicated, nothing lost', async () => {
    const perRound = 2;
    await publisher.publishDetectionEvents(REBALANCED.flatMap((id) => events(id, perRound)));
    await untilReported(REBALANCED, perRound);

    const second = await startStreamProcessor(env);
    others.push(second);
    for (let round = 1; round < 3; round++) {
      await publisher.publishDetectionEvents(REBALANCED.flatMap((id) => events(id, perRound)));
    }
    await processor.stop();
    processor = second;
    others.pop();
    for (let round = 3; round < 5; round++) {
      await publisher.publishDetectionEvents(REBALANCED.flatMap((id) => events(id, perRound)));
    }
    await untilReported(REBALANCED, 5 * perRound);
    expectExactlyOnce(REBALANCED, 5 * perRound);
  });
});
