import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import type { Browser, Page } from 'playwright-core';
import type { RunningApp } from '@vigil/config';
import {
  SqlNotificationSettingsStore,
  WebhookProviderService,
  createPgSqlClient,
  createUserService,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import type { DetectionEventRecord, NotificationCommand } from '@vigil/contracts';
import {
  AvroCodec,
  ContractPublisher,
  TopicCatalog,
  ensureTopics,
  registerContracts,
} from '@vigil/kafka';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { startStreamProcessor } from '../../apps/stream-processor/src/start-stream-processor';
import { startWeb } from '../../apps/web/src/start-web';
import { launchBrowser, navigateBy, openPage, signIn } from '../support/browser';
import { eventually } from '../support/http-client';
import { commandsInRecord } from '../support/notification-commands';
import { keyOnPartitionOf } from '../support/partition-of';

jest.setTimeout(180_000);

const PASSWORD = 'a long enough password';
const run = randomUUID().slice(0, 8);
const partitions = Number(process.env.VIGIL_TOPIC_PARTITIONS);
/** Follows the global settings throughout. */
const WATCHED = `det-watched-${run}`;
/** On WATCHED's partition with its own settings (webhook, Immediate): its command comes after any of WATCHED's. */
const MARKER = keyOnPartitionOf(WATCHED, `det-marker-${run}`, partitions);
/** Disabled on its own settings until it is resumed, which the processor reports from its timer. */
const PROBE = `det-probe-${run}`;

const env = {
  ...process.env,
  WEB_PORT: '0',
  PROCESSOR_TIMER_INTERVAL_MS: '200',
  NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
};

let sequence = 0;
function events(detectionId: string, count: number): DetectionEventRecord[] {
  return Array.from({ length: count }, () => {
    sequence += 1;
    return {
      id: `evt-${randomUUID()}`,
      detection_id: detectionId,
      detection_name: 'Impossible travel',
      issue_type: 'impossible_travel',
      employee_email: `user${sequence % 3}@example.com`,
      employee_name: `User ${sequence % 3}`,
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

interface Reported {
  kind: string;
  previousCount: number;
  currentCount: number;
  eventCount: number;
  providerIds?: string[];
}

describe('settings saved in the web application reach the stream processor', () => {
  const topics = new TopicCatalog(process.env.VIGIL_TOPIC_PREFIX!, partitions);
  const kafka = new Kafka({
    brokers: process.env.KAFKA_BROKERS!.split(','),
    logLevel: logLevel.NOTHING,
  });
  let sql: SqlClient;
  let store: SqlNotificationSettingsStore;
  let publisher: ContractPublisher;
  let reader: Consumer;
  let processor: RunningApp;
  let web: RunningApp;
  let browser: Browser;
  let page: Page;
  let providerId: string;
  const admin = { email: `admin-${randomUUID()}@example.com`, name: 'Ada Admin' };
  const commands: NotificationCommand[] = [];

  const reported = (detectionId: string): Reported[] =>
    commands
      .filter((c) => 'detectionId' in c.decision && c.decision.detectionId === detectionId)
      .map((c) => {
        const d = c.decision as unknown as Reported;
        return {
          kind: d.kind,
          previousCount: d.previousCount,
          currentCount: d.currentCount,
          eventCount: d.eventCount,
          providerIds: d.providerIds,
        };
      });
  const untilReported = (detectionId: string, currentCount: number) =>
    eventually(
      async () => reported(detectionId).some((r) => r.currentCount === currentCount) || undefined,
      { timeoutMs: 60_000 },
    );
  /** Every event reported once, each notification continuing where the previous one ended. */
  const expectChain = (list: Reported[], from: number, to: number) => {
    expect(list.length).toBeGreaterThan(0);
    list.forEach((r, i) => {
      expect(r.previousCount).toBe(i === 0 ? from : list[i - 1].currentCount);
      expect(r.eventCount).toBe(r.currentCount - r.previousCount);
    });
    expect(list.at(-1)!.currentCount).toBe(to);
  };

  let markerCount = 0;
  /** A marker event after WATCHED's: once its command is read, WATCHED's events were processed. */
  async function afterMarker(): Promise<void> {
    markerCount += 1;
    await publisher.publishDetectionEvents(events(MARKER, 1));
    await untilReported(MARKER, markerCount);
  }

  const webhookImmediate = (): NotificationSettings => ({
    ...DEFAULT_NOTIFICATION_SETTINGS,
    webhookEnabled: true,
    webhookProviderIds: [providerId],
    frequency: 'immediate',
  });

  beforeAll(async () => {
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    await runMigrations(sql);
    await createUserService(sql).createUser({ ...admin, role: 'admin', password: PASSWORD });
    providerId = (
      await new WebhookProviderService(sql, {
        policy: { allowPrivate: true, allowlist: [] },
      }).enroll({ name: 'SOAR playbook', kind: 'automation', url: 'http://127.0.0.1:9/hook' })
    ).provider.id;
    store = new SqlNotificationSettingsStore(sql);
    await store.saveGlobal({ ...DEFAULT_NOTIFICATION_SETTINGS });
    await store.saveDetectionConfig(MARKER, { useCustom: true, custom: webhookImmediate() });
    await store.saveDetectionConfig(PROBE, {
      useCustom: true,
      custom: { ...webhookImmediate(), silence: { kind: 'disabled' } },
    });

    await ensureTopics(kafka, topics.all());
    const codec = new AvroCodec(process.env.SCHEMA_REGISTRY_URL!);
    await registerContracts(codec, topics);
    publisher = new ContractPublisher(kafka, codec, topics);
    await publisher.connect();
    reader = kafka.consumer({ groupId: `reader-${run}`, readUncommitted: false });
    await reader.connect();
    await reader.subscribe({ topics: [topics.notificationCommands], fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) => {
        commands.push(...commandsInRecord(message.value));
      },
    });

    processor = await startStreamProcessor(env);
    web = await startWeb(env);
    browser = await launchBrowser();
    page = (await openPage(browser)).page;
    await signIn(page, web.url!, admin.email, PASSWORD);
  });

  afterAll(async () => {
    await browser?.close();
    await web?.stop();
    await processor?.stop();
    await reader?.disconnect();
    await publisher?.disconnect();
    await sql?.close();
  });

  async function openNotificationSettings(): Promise<void> {
    await page.goto(`${web.url}/settings/notifications`);
  }

  it('sends no webhook while webhooks are off, then one covering every event once they are turned on', async () => {
    await publisher.publishDetectionEvents(events(WATCHED, 3));
    await afterMarker();
    expect(reported(WATCHED)).toEqual([]);

    await openNotificationSettings();
    await page.getByLabel('Send webhook notifications').check();
    await page.getByRole('checkbox', { name: 'SOAR playbook' }).check();
    await page.getByRole('radio', { name: 'Immediate' }).check();
    const response = await navigateBy(page, () =>
      page.getByRole('button', { name: 'Save settings' }).click(),
    );
    expect(response.status()).toBe(200);

    await publisher.publishDetectionEvents(events(WATCHED, 2));
    await untilReported(WATCHED, 5);
    const sent = reported(WATCHED);
    expectChain(sent, 0, 5);
    expect(sent.every((r) => r.kind === 'webhook')).toBe(true);
    expect(sent[0].providerIds).toEqual([providerId]);
  });

  it('sends nothing during a global snooze, and reports the snoozed events from the timer on Resume', async () => {
    await openNotificationSettings();
    await navigateBy(page, () => page.getByRole('button', { name: 'Snooze for 1 hour' }).click());
    await expect(page.locator('#silence-status').textContent()).resolves.toMatch(/^Snoozed/);
    // Changes are applied in order: once the probe's later change is reported, the processor
    // has the snooze too.
    await publisher.publishDetectionEvents(events(PROBE, 1));
    await store.saveDetectionConfig(PROBE, { useCustom: true, custom: webhookImmediate() });
    await untilReported(PROBE, 1);

    const before = reported(WATCHED).length;
    await publisher.publishDetectionEvents(events(WATCHED, 4));
    await afterMarker();
    expect(reported(WATCHED)).toHaveLength(before);

    await navigateBy(page, () =>
      page.getByRole('button', { name: 'Resume notifications' }).click(),
    );
    await untilReported(WATCHED, 9);
    const afterResume = reported(WATCHED).slice(before);
    expect(afterResume).toEqual([
      {
        kind: 'webhook',
        previousCount: 5,
        currentCount: 9,
        eventCount: 4,
        providerIds: [providerId],
      },
    ]);
  });
});
