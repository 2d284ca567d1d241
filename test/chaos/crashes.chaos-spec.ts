import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import type { DetectionEventRecord } from '@vigil/contracts';
import {
  SqlNotificationSettingsStore,
  WebhookProviderService,
  createPgSqlClient,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import { AvroCodec, ContractPublisher, TopicCatalog, registerContracts } from '@vigil/kafka';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  type NotificationFrequency,
} from '@vigil/notification-policy';
import { IndexNames, createElasticsearchClient } from '@vigil/search';
import { WebhookReceiver } from '../support/webhook-receiver';
import { AppProcess } from './support/app-process';
import { chaosScale } from './support/chaos-scale';
import { compileApps, repositoryRoot } from './support/compiled-apps';
import { consumerLag } from './support/consumer-lag';
import { chaosSeed, seededRandom } from './support/seeded-random';

/**
 * Crash recovery (DESIGN.md §5): events flow over detections in Immediate, Threshold and Batch
 * mode while the stream processor, the notifier and the indexer are killed with SIGKILL at
 * seeded random moments and started again. Once everything has caught up, every webhook the
 * settings call for has arrived, each detection's webhooks add up to its final count, a
 * redelivered webhook carries the very same body, and every event is in the events index.
 */
const EVENTS = chaosScale(10_000, 200_000);
const DETECTIONS = chaosScale(200, 2_000);
const PRODUCE_MS = chaosScale(60_000, 300_000);
const KILLS_PER_APP = chaosScale(3, 6);
// Deliveries a killed notifier had claimed are sent again when their lease expires (2.5 min
// with the default SMTP bound), so catching up may take that long after the last kill.
const QUIESCE_MS = chaosScale(300_000, 600_000);
const RESEND_SHARE = 0.02;
const PARTITIONS = Number(process.env.VIGIL_TOPIC_PARTITIONS);
const PREFIX = process.env.VIGIL_TOPIC_PREFIX!;
const SEED = chaosSeed();
const KILLED_APPS = ['stream-processor', 'notifier', 'indexer'] as const;

jest.setTimeout(PRODUCE_MS + QUIESCE_MS + 300_000);

interface DetectionPlan {
  id: string;
  frequency: NotificationFrequency;
  threshold: number | null;
  /** Receiver paths of the providers its settings select. */
  paths: string[];
}

interface Webhook {
  path: string;
  webhookId: string;
  body: string;
  payload: {
    notification: { id: string };
    metadata: {
      detection_id: string;
      previous_count: number;
      current_count: number;
      event_count: number;
    };
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`crashes: kill -9 of the processor, notifier and indexer (seed ${SEED})`, () => {
  const random = seededRandom(SEED);
  const buildDir = join(repositoryRoot, '.vigil', 'chaos', `${PREFIX}build`);
  const kafka = new Kafka({
    brokers: process.env.KAFKA_BROKERS!.split(','),
    logLevel: logLevel.NOTHING,
  });
  const topics = new TopicCatalog(PREFIX, PARTITIONS);
  let apps: AppProcess[] = [];
  let receiver: WebhookReceiver;
  let sql: SqlClient;
  let admin: Admin;
  const plans: DetectionPlan[] = [];
  let finished = false;
  /** Distinct deliveries received so far, by webhook-id, and how many requests were read. */
  const deliveries = new Map<string, Webhook>();
  let parsedRequests = 0;

  beforeAll(async () => {
    console.log(`crash chaos seed ${SEED} (replay with VIGIL_CHAOS_SEED=${SEED})`);
    receiver = await WebhookReceiver.start();
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    await runMigrations(sql);
    const providers = new WebhookProviderService(sql, {
      policy: { allowPrivate: true, allowlist: [] },
    });
    const a = await providers.enroll({ name: 'A', kind: 'custom', url: receiver.url('/a') });
    const b = await providers.enroll({ name: 'B', kind: 'custom', url: receiver.url('/b') });
    const store = new SqlNotificationSettingsStore(sql);
    const global = await store.saveGlobal({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      frequency: 'batch',
      webhookEnabled: true,
      webhookProviderIds: [a.provider.id],
      emailEnabled: false,
    });
    for (let i = 0; i < DETECTIONS; i++) {
      const id = `det-${i}`;
      if (i % 3 === 0) {
        plans.push({ id, frequency: 'immediate', threshold: null, paths: ['/a', '/b'] });
        await store.saveDetectionConfig(id, {
          useCustom: true,
          custom: {
            ...global,
            frequency: 'immediate',
            webhookProviderIds: [a.provider.id, b.provider.id],
          },
        });
      } else if (i % 3 === 1) {
        // Around the mean count per detection, so some stay at or below their threshold.
        const threshold = Math.round((EVENTS / DETECTIONS) * (0.7 + (i % 7) * 0.1));
        plans.push({ id, frequency: 'threshold', threshold, paths: ['/a'] });
        await store.saveDetectionConfig(id, {
          useCustom: true,
          custom: { ...global, frequency: 'threshold', threshold },
        });
      } else {
        plans.push({ id, frequency: 'batch', threshold: null, paths: ['/a'] });
      }
    }

    await compileApps(buildDir);
    const env = {
      ...process.env,
      NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
      NOTIFIER_RETRY_SCHEDULE: '200ms,500ms,1s,2s,5s,10s',
      PROCESSOR_TIMER_INTERVAL_MS: '200',
    };
    apps = KILLED_APPS.map((app) => new AppProcess(app, buildDir, env));
    // The processor first: it creates the topics and registers the record schemas.
    await apps[0].start();
    await Promise.all(apps.slice(1).map((app) => app.start()));
    admin = kafka.admin();
    await admin.connect();
  });

  afterAll(async () => {
    finished = true;
    await Promise.all(apps.map((app) => app.stop()));
    await admin?.disconnect();
    await receiver?.stop();
    await sql?.close();
    rmSync(buildDir, { recursive: true, force: true });
  });

  it('delivers every webhook once in content, adds up per detection and indexes every event', async () => {
    const started = Date.now();
    const produced = new Map<string, Set<string>>(plans.map((p) => [p.id, new Set<string>()]));
    const killing = Promise.all(apps.map((app) => killRepeatedly(app)));
    const sent = await produce(produced);
    await killing;
    const killedAt = Date.now();

    const expectations = await eventuallyQuiet(produced);
    const quietAt = Date.now();

    const webhooks = receiver.received.map(toWebhook);
    const byWebhookId = groupBy(webhooks, (w) => w.webhookId);
    const differing = [...byWebhookId.values()].filter(
      (copies) => new Set(copies.map((c) => c.body)).size > 1,
    );
    // One notification sent to several providers: the same title, body and metadata to each.
    const notificationsDiffering = [
      ...groupBy(webhooks, (w) => w.payload.notification.id).values(),
    ].filter(
      (copies) =>
        new Set(copies.map((c) => JSON.stringify([c.payload.notification, c.payload.metadata])))
          .size > 1,
    );
    const sameContentDuplicates = [...byWebhookId.values()].reduce(
      (n, copies) => n + copies.length - 1,
      0,
    );
    const distinctEvents = [...produced.values()].reduce((n, ids) => n + ids.size, 0);
    const indexed = await indexedEventIds();
    const missing = [...produced.values()].flatMap((ids) =>
      [...ids].filter((id) => !indexed.has(id)),
    );

    console.log(
      [
        `crash chaos (seed ${SEED}): ${sent} events sent (${distinctEvents} distinct) over ${DETECTIONS} detections`,
        `kills: ${apps.map((app) => `${app.app} ${app.kills}`).join(', ')}`,
        `notifications: ${new Set(webhooks.map((w) => w.payload.notification.id)).size}, deliveries: ${byWebhookId.size}, requests: ${webhooks.length}`,
        `duplicates with the same content: ${sameContentDuplicates}, with different content: ${differing.length} (notifications differing between providers: ${notificationsDiffering.length})`,
        `indexed: ${indexed.size}, missing from the index: ${missing.length}`,
        `produce+kills ${Math.round((killedAt - started) / 1000)} s, quiescence ${Math.round((quietAt - killedAt) / 1000)} s`,
      ].join('\n'),
    );

    expect(apps.map((app) => app.kills)).toEqual(apps.map(() => KILLS_PER_APP));
    expect(differing.map((copies) => copies.map((c) => c.body))).toEqual([]);
    expect(notificationsDiffering.map((copies) => copies.map((c) => c.body))).toEqual([]);
    expect(expectations).toEqual([]);
    expect(missing.slice(0, 20)).toEqual([]);
    expect(indexed.size).toBe(distinctEvents);
  });

  /** Sends the events in paced chunks over PRODUCE_MS, a share of them resent; returns how many. */
  async function produce(produced: Map<string, Set<string>>): Promise<number> {
    const codec = new AvroCodec(process.env.SCHEMA_REGISTRY_URL!);
    await registerContracts(codec, topics);
    const publisher = new ContractPublisher(kafka, codec, topics);
    await publisher.connect();
    const chunks = Math.max(1, Math.floor(PRODUCE_MS / 500));
    const perChunk = Math.ceil(EVENTS / chunks);
    const sentIds: DetectionEventRecord[] = [];
    let sent = 0;
    const started = Date.now();
    try {
      for (let chunk = 0; chunk < chunks && sent < EVENTS; chunk++) {
        const records: DetectionEventRecord[] = [];
        for (let i = 0; i < perChunk && sent + records.length < EVENTS; i++) {
          const resend = sentIds.length > 0 && random() < RESEND_SHARE;
          const record = resend
            ? sentIds[Math.floor(random() * sentIds.length)]
            : eventRecord(sent + records.length, plans[Math.floor(random() * plans.length)].id);
          records.push(record);
        }
        await publisher.publishDetectionEvents(records);
        for (const record of records) {
          produced.get(record.detection_id)!.add(record.id);
          sentIds.push(record);
        }
        sent += records.length;
        await sleep(started + (chunk + 1) * 500 - Date.now());
      }
    } finally {
      await publisher.disconnect();
    }
    return sent;
  }

  /** KILLS_PER_APP SIGKILLs at seeded random moments of the production, each followed by a start. */
  async function killRepeatedly(app: AppProcess): Promise<void> {
    const started = Date.now();
    const moments = Array.from({ length: KILLS_PER_APP }, () => 2_000 + random() * PRODUCE_MS).sort(
      (x, y) => x - y,
    );
    const pauses = moments.map(() => random() * 2_000);
    for (const [n, moment] of moments.entries()) {
      await sleep(started + moment - Date.now());
      if (finished) return;
      await app.kill9();
      await sleep(pauses[n]);
      await app.start();
    }
  }

  /** Waits until the consumers caught up and the expectations hold, or QUIESCE_MS passed. */
  async function eventuallyQuiet(produced: Map<string, Set<string>>): Promise<string[]> {
    const deadline = Date.now() + QUIESCE_MS;
    let unmet: string[] = [];
    for (;;) {
      const lags = await Promise.all([
        consumerLag(admin, {
          groupId: `${PREFIX}vigil-stream-processor`,
          topic: topics.detectionEvents,
        }),
        consumerLag(admin, { groupId: `${PREFIX}vigil-indexer`, topic: topics.detectionEvents }),
        consumerLag(admin, {
          groupId: `${PREFIX}vigil-notifier`,
          topic: topics.notificationCommands,
        }),
      ]);
      unmet = unmetExpectations(produced);
      if ((lags.every((lag) => lag <= PARTITIONS) && unmet.length === 0) || Date.now() > deadline) {
        if (unmet.length > 0) console.log(`lags at the deadline: ${lags.join(', ')}`);
        return unmet.slice(0, 20);
      }
      await sleep(2_000);
    }
  }

  /**
   * Per detection and selected provider: the distinct deliveries, in order of count, chain from
   * 0 to the final count without gap or overlap (so their event_count add up to it), or none
   * when a Threshold detection never exceeded its threshold.
   */
  function unmetExpectations(produced: Map<string, Set<string>>): string[] {
    // Parsed once each: re-parsing every request at every check would starve the receiver,
    // which runs in this process, of the CPU it needs to answer the notifier.
    for (; parsedRequests < receiver.received.length; parsedRequests++) {
      const webhook = toWebhook(receiver.received[parsedRequests]);
      deliveries.set(webhook.webhookId, webhook);
    }
    const byTarget = groupBy(
      [...deliveries.values()],
      (w) => `${w.payload.metadata.detection_id} ${w.path}`,
    );
    const unmet: string[] = [];
    for (const plan of plans) {
      const count = produced.get(plan.id)!.size;
      const expectsWebhooks = plan.frequency !== 'threshold' || count > plan.threshold!;
      for (const path of ['/a', '/b']) {
        const got = (byTarget.get(`${plan.id} ${path}`) ?? [])
          .map((w) => w.payload.metadata)
          .sort((x, y) => x.current_count - y.current_count);
        const chain = got.map((m) => `${m.previous_count}+${m.event_count}=${m.current_count}`);
        const wanted = expectsWebhooks && plan.paths.includes(path);
        const sum = got.reduce((n, m) => n + m.event_count, 0);
        const contiguous = got.every(
          (m, i) =>
            m.previous_count === (i === 0 ? 0 : got[i - 1].current_count) &&
            m.current_count - m.previous_count === m.event_count,
        );
        if (!wanted && got.length > 0) {
          unmet.push(`${plan.id} (${plan.frequency}) ${path}: unexpected ${chain.join(' ')}`);
        } else if (wanted && (sum !== count || !contiguous)) {
          unmet.push(
            `${plan.id} (${plan.frequency}) ${path}: count ${count}, got ${chain.join(' ') || 'nothing'}`,
          );
        }
      }
    }
    return unmet;
  }

  async function indexedEventIds(): Promise<Set<string>> {
    const es = createElasticsearchClient(process.env.ELASTICSEARCH_URL!);
    const ids = new Set<string>();
    try {
      const index = new IndexNames(process.env.VIGIL_INDEX_PREFIX!).alias('events');
      await es.indices.refresh({ index });
      let page = await es.search<{ id: string }>({
        index,
        scroll: '1m',
        size: 5_000,
        _source: ['id'],
      });
      while (page.hits.hits.length > 0) {
        for (const hit of page.hits.hits) ids.add(hit._source!.id);
        page = await es.scroll<{ id: string }>({ scroll_id: page._scroll_id!, scroll: '1m' });
      }
      if (page._scroll_id) await es.clearScroll({ scroll_id: page._scroll_id });
    } finally {
      await es.close();
    }
    return ids;
  }
});

function eventRecord(n: number, detectionId: string): DetectionEventRecord {
  return {
    id: `evt-${n}`,
    detection_id: detectionId,
    detection_name: 'Impossible travel',
    issue_type: 'impossible_travel',
    employee_email: `user${n % 11}@example.com`,
    employee_name: `User ${n % 11}`,
    asset_name: `laptop-${n % 13}`,
    happened: Date.now() - 3_600_000 + (n % 1_000),
    risk_score: 5,
    source: 'okta',
    high_prevalence: false,
    allowlisted: false,
    description: null,
  };
}

function toWebhook(request: {
  path: string;
  headers: Record<string, unknown>;
  body: string;
}): Webhook {
  return {
    path: request.path,
    webhookId: String(request.headers['webhook-id']),
    body: request.body,
    payload: JSON.parse(request.body) as Webhook['payload'],
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
