import { randomUUID } from 'node:crypto';
import type { RunningApp } from '@vigil/config';
import {
  SqlNotificationSettingsStore,
  WebhookProviderService,
  createApiTokenService,
  createPgSqlClient,
  runMigrations,
  type SqlClient,
} from '@vigil/control-plane';
import { buildDetectionWebhookPayload } from '@vigil/contracts';
import {
  DEFAULT_DETECTION_NOTIFICATION_CONFIG,
  DEFAULT_NOTIFICATION_SETTINGS,
  disableDetection,
  dryRunDetection,
  resolveEffectiveSettings,
  unsilenceDetection,
} from '@vigil/notification-policy';
import { openEventReadModel, type EventReadModel, type Opened } from '@vigil/search';
import { PreviewDetectionNotifications } from '@vigil/workspace';
import { startApi } from '../../apps/api/src/start-api';
import { startIndexer } from '../../apps/indexer/src/start-indexer';
import { startIngest } from '../../apps/ingest/src/start-ingest';
import { startNotifier } from '../../apps/notifier/src/start-notifier';
import { startStreamProcessor } from '../../apps/stream-processor/src/start-stream-processor';
import {
  EnrichingWebhookReceiver,
  type DetectionArrival,
  type InvestigationArrival,
} from '../support/enriching-webhook-receiver';
import { anEventInput, anInvestigationInput } from '../support/factories';
import { eventually, request } from '../support/http-client';
import { keyOnPartitionOf } from '../support/partition-of';
import { SmtpSink } from '../support/smtp-sink';

jest.setTimeout(120_000);

const APP_URL = 'https://vigil.example.com';
const RECIPIENT = 'soc@example.com';
const PROVIDER_NAME = 'SOAR';
const PARTITIONS = Number(process.env.VIGIL_TOPIC_PARTITIONS);
const HOUR = 3_600_000;
const run = randomUUID().slice(0, 8);
const detection = (name: string) => `det-${name}-${run}`;

const TRAVEL = detection('travel');
const RESENT = detection('resent');
const CAPPED = detection('capped');
const SILENCED = detection('silenced');
const FLAKY = detection('flaky');

const PEOPLE = [
  { employee_email: 'ada@example.com', employee_name: 'Ada Lovelace' },
  { employee_email: 'alan@example.com', employee_name: 'Alan Turing' },
  { employee_email: 'grace@example.com', employee_name: 'Grace Hopper' },
];

/** `count` events of one detection, a second apart from `startAt`, by the people in turn. */
function eventsOf(
  detectionId: string,
  count: number,
  startAt: number,
  people = [0, 1, 0, 2, 1],
): Record<string, any>[] {
  return Array.from({ length: count }, (_, i) =>
    anEventInput({
      detection_id: detectionId,
      detection_name: 'Impossible travel',
      ...PEOPLE[people[i % people.length]],
      happened: new Date(startAt + i * 1000).toISOString(),
      risk_score: 5 + i,
      asset_name: `laptop-${i}`,
      description: `Sign-in from country ${i}`,
    }),
  );
}

/** What SPEC §6.2 puts in metadata.events[] for an ingested event. */
const summaryOf = (event: Record<string, any>) => ({
  id: event.id,
  person_name: event.employee_name,
  description: event.description,
  timestamp: Date.parse(event.happened),
});

const counts = (arrival: DetectionArrival) => {
  const { previous_count, current_count, event_count } = arrival.payload.metadata;
  return [previous_count, current_count, event_count];
};

describe('pipeline: ingest → processor → notifier → signed webhook → enrichment via the query API', () => {
  const apps: RunningApp[] = [];
  let receiver: EnrichingWebhookReceiver;
  let smtp: SmtpSink;
  let sql: SqlClient;
  let store: SqlNotificationSettingsStore;
  let token: string;
  let ingestUrl: string;
  let apiUrl: string;
  let readModel: Opened<EventReadModel>;
  let providers: WebhookProviderService;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    receiver = await EnrichingWebhookReceiver.start();
    sql = createPgSqlClient(process.env.DATABASE_URL!, 2);
    await runMigrations(sql);

    providers = new WebhookProviderService(sql, {
      policy: { allowPrivate: true, allowlist: [] },
    });
    readModel = await openEventReadModel({
      elasticsearchUrl: process.env.ELASTICSEARCH_URL,
      indexPrefix: process.env.VIGIL_INDEX_PREFIX!,
      sql,
    });
    const { provider, secret } = await providers.enroll({
      name: PROVIDER_NAME,
      kind: 'custom',
      url: receiver.url,
    });
    store = new SqlNotificationSettingsStore(sql);
    const global = await store.saveGlobal({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      frequency: 'immediate',
      webhookEnabled: true,
      webhookProviderIds: [provider.id],
      emailEnabled: true,
      recipients: [RECIPIENT],
    });
    // Saved before the processor starts, so its first read of the settings already has them.
    await store.saveDetectionConfig(CAPPED, {
      useCustom: true,
      custom: { ...global, maxEventsPerNotification: 2 },
    });
    await store.saveDetectionConfig(
      SILENCED,
      disableDetection(DEFAULT_DETECTION_NOTIFICATION_CONFIG, global),
    );
    token = (
      await createApiTokenService(sql).createToken({
        name: 'soar',
        permissions: { detection: 'write' },
      })
    ).value;

    const env = {
      ...process.env,
      API_PORT: '0',
      INGEST_PORT: '0',
      APP_URL,
      API_RATE_LIMIT_PER_MINUTE: '100000',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      SMTP_FROM: 'Vigil <alerts@vigil.example.com>',
      NOTIFIER_RETRY_SCHEDULE: '200ms,400ms',
      NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
      PROCESSOR_TIMER_INTERVAL_MS: '100',
    };
    apps.push(await startIndexer(env));
    apps.push(await startStreamProcessor(env));
    apps.push(await startNotifier(env));
    const ingest = await startIngest(env);
    apps.push(ingest);
    const api = await startApi(env);
    apps.push(api);
    ingestUrl = ingest.url!;
    apiUrl = api.url!;
    receiver.configure({ secret, apiUrl, token });
  });

  afterAll(async () => {
    await receiver?.settled();
    for (const app of apps.reverse()) await app.stop();
    await receiver?.stop();
    await smtp?.stop();
    await readModel?.close();
    await sql?.close();
  });

  async function ingestEvents(events: Record<string, any>[]): Promise<void> {
    const response = await request('POST', `${ingestUrl}/ingest/v1/detection-events`, {
      token,
      json: events,
    });
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ accepted: events.length, rejected: 0 });
  }

  async function ingestInvestigations(reports: Record<string, any>[]): Promise<void> {
    const response = await request('POST', `${ingestUrl}/ingest/v1/investigations`, {
      token,
      json: reports,
    });
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ accepted: reports.length, rejected: 0 });
  }

  const webhooksOf = (detectionId: string, count: number) =>
    eventually(async () => {
      const got = receiver.detectionWebhooks(detectionId);
      return got.length >= count ? got : undefined;
    });

  const investigationWebhooksOf = (investigationId: string, count: number) =>
    eventually(async () => {
      const got: InvestigationArrival[] = receiver.investigationWebhooks(investigationId);
      return got.length >= count ? got : undefined;
    });

  const emailsAbout = (detectionId: string) =>
    smtp.to(RECIPIENT).filter((mail) => mail.text?.includes(`/u/detections/${detectionId}`));

  /** One event on another detection of the same partition, after which `detectionId`'s records are consumed. */
  async function ingestMarkerAfter(detectionId: string, before: Record<string, any>[] = []) {
    const marker = keyOnPartitionOf(detectionId, `det-marker-${run}-${detectionId}`, PARTITIONS);
    await ingestEvents([...before, ...eventsOf(marker, 1, Date.now())]);
    await webhooksOf(marker, 1);
  }

  it('sends one webhook of SPEC §6.2, field by field, and one email for the new events of a detection', async () => {
    const startAt = Date.now() - 2 * HOUR;
    const events = eventsOf(TRAVEL, 3, startAt);
    await ingestEvents(events);

    const [webhook] = await webhooksOf(TRAVEL, 1);
    expect(webhook.payload).toEqual({
      notification: {
        id: expect.any(String),
        title: 'Impossible travel: 3 new events',
        body: [
          'Detection "Impossible travel" has new events.',
          'New events since last notification: 3',
          'Events attached: 3',
          'Affected users: 2',
          'First notification for this detection.',
        ].join('\n'),
        action_url: `${APP_URL}/u/detections/${TRAVEL}`,
      },
      delivery: { id: webhook.webhookId, recipient_name: PROVIDER_NAME, channel: 'webhook' },
      metadata: {
        detection_id: TRAVEL,
        previous_count: 0,
        current_count: 3,
        since: startAt,
        event_count: 3,
        user_count: 2,
        affected_users: ['ada@example.com', 'alan@example.com'],
        events: events.map(summaryOf),
        truncated_count: 0,
      },
    });

    const [mail] = await eventually(async () =>
      emailsAbout(TRAVEL).length ? emailsAbout(TRAVEL) : undefined,
    );
    expect(mail.subject).toBe('Impossible travel: 3 new events');
    expect(mail.text).toContain('New events since last notification: 3');
    expect(mail.text).toContain(`${APP_URL}/u/detections/${TRAVEL}`);
    expect(receiver.detectionWebhooks(TRAVEL)).toHaveLength(1);
    expect(receiver.refused).toEqual([]);
  });

  it('lets the receiver fetch every full event of a detection webhook by id (SPEC §6.4)', async () => {
    const events = eventsOf(detection('enriched'), 3, Date.now() - HOUR);
    await ingestEvents(events);

    const [webhook] = await webhooksOf(events[0].detection_id, 1);
    expect(webhook.kind).toBe('detection');
    const enriched = await webhook.enriched!;
    expect(enriched).toEqual(events.map((event) => ({ ...event })));
    expect(enriched.map((event) => [event.risk_score, event.asset_name])).toEqual([
      [5, 'laptop-0'],
      [6, 'laptop-1'],
      [7, 'laptop-2'],
    ]);
  });

  it('counts a resent event once: no webhook for the resend, the next one reports only what is new', async () => {
    const first = eventsOf(RESENT, 3, Date.now() - HOUR);
    const sentAt = Date.now();
    await ingestEvents(first);
    const [earlier] = await webhooksOf(RESENT, 1);

    await ingestMarkerAfter(RESENT, first);
    expect(receiver.detectionWebhooks(RESENT)).toHaveLength(1);

    const more = eventsOf(RESENT, 2, Date.now() - 60_000, [2, 0]);
    await ingestEvents(more);
    const webhooks = await webhooksOf(RESENT, 2);
    expect(webhooks.map(counts)).toEqual([
      [0, 3, 3],
      [3, 5, 2],
    ]);
    const { metadata, notification } = webhooks[1].payload;
    expect(notification.title).toBe('Impossible travel: 2 new events');
    expect(notification.body.split('\n')).toEqual([
      'Detection "Impossible travel" has new events.',
      'New events since last notification: 2',
      'Events attached: 2',
      'Affected users: 3',
      expect.stringMatching(/^Time since last notification: \d+ seconds?$/),
    ]);
    expect(metadata).toEqual({
      detection_id: RESENT,
      previous_count: 3,
      current_count: 5,
      since: expect.any(Number),
      event_count: 2,
      user_count: 3,
      affected_users: ['ada@example.com', 'alan@example.com', 'grace@example.com'],
      events: more.map(summaryOf),
      truncated_count: 0,
    });
    // `since` is when the previous webhook was decided.
    expect(metadata.since).toBeGreaterThanOrEqual(sentAt);
    expect(metadata.since).toBeLessThanOrEqual(earlier.receivedAt);
  });

  it('attaches only the newest Max events per notification, with exact counts, and the query API returns them all from `since`', async () => {
    const startAt = Date.now() - 10 * 60_000;
    const events = eventsOf(CAPPED, 5, startAt);
    await ingestEvents(events);

    const [webhook] = await webhooksOf(CAPPED, 1);
    const { metadata, notification } = webhook.payload;
    expect(metadata).toEqual({
      detection_id: CAPPED,
      previous_count: 0,
      current_count: 5,
      since: startAt,
      event_count: 5,
      user_count: 3,
      affected_users: ['ada@example.com', 'alan@example.com'],
      events: events.slice(3).map(summaryOf),
      truncated_count: 3,
    });
    expect(notification.body).toContain('New events since last notification: 5');
    expect(notification.body).toContain('Events attached: 2');

    const query = `happened >= '${new Date(metadata.since).toISOString()}'`;
    const all = await eventually(async () => {
      const response = await request('POST', `${apiUrl}/api-key/v1/detections/${CAPPED}/events`, {
        token,
        json: { query },
      });
      return response.body?.items?.length === 5 ? response : undefined;
    });
    expect(all.status).toBe(200);
    expect(all.body.pagination.count).toBe(5);
    // Newest first.
    const ids = (all.body as { items: { id: string }[] }).items.map((event) => event.id);
    expect(ids).toEqual(events.map((event) => event.id as string).reverse());
  });

  it('sends nothing for a silenced detection; unsilencing it sends one webhook covering everything since', async () => {
    const events = eventsOf(SILENCED, 4, Date.now() - HOUR);
    await ingestEvents(events.slice(0, 2));
    await ingestMarkerAfter(SILENCED, events.slice(2, 3));
    expect(receiver.attemptsFor(SILENCED)).toEqual([]);
    expect(emailsAbout(SILENCED)).toEqual([]);

    // The dry run, from the state the processor recorded (through the indexer), says why
    // nothing was sent, and predicts what resuming sends.
    // The state and the events are indexed apart: the preview needs both to be searchable.
    const recorded = await eventually(async () => {
      const [state, detection] = await Promise.all([
        readModel.value.getDetectionState(SILENCED),
        readModel.value.getDetection(SILENCED),
      ]);
      return state?.snapshot.count === 3 && detection !== null ? state : undefined;
    });
    const preview = await new PreviewDetectionNotifications(readModel.value, store, providers, {
      appUrl: APP_URL,
    }).execute({ detectionId: SILENCED, now: Date.now() });
    expect(preview.channels.map((c) => [c.channel, c.fires, c.reasonCode])).toEqual([
      ['webhook', false, 'disabled'],
      ['email', false, 'disabled'],
    ]);
    const resumed = unsilenceDetection(await store.getDetectionConfig(SILENCED));
    const predicted = dryRunDetection(
      recorded.snapshot,
      resolveEffectiveSettings(await store.getGlobal(), resumed).settings,
      await providers.list(),
      Date.now(),
    );
    if (!predicted.webhook.fires) throw new Error('the dry run predicts no webhook');

    await store.saveDetectionConfig(SILENCED, resumed);
    const [webhook] = await webhooksOf(SILENCED, 1);
    expect(counts(webhook)).toEqual([0, 3, 3]);
    expect(webhook.payload.metadata.events).toEqual(events.slice(0, 3).map(summaryOf));
    expect(webhook.payload).toEqual(
      buildDetectionWebhookPayload(
        predicted.webhook.decision,
        { id: webhook.payload.delivery.id, recipientName: PROVIDER_NAME },
        APP_URL,
      ),
    );

    // The next webhook reports only the next event: the unsilencing sent exactly one.
    await ingestEvents(events.slice(3));
    const webhooks = await webhooksOf(SILENCED, 2);
    expect(webhooks.map(counts)).toEqual([
      [0, 3, 3],
      [3, 4, 1],
    ]);
  });

  it('sends the SPEC §6.3 webhook for an investigation, enriched with the full report; an identical resend sends nothing', async () => {
    const report = anInvestigationInput({
      headline: 'Impossible travel by Ada',
      detection: { id: TRAVEL, name: 'Impossible travel' },
    });
    await ingestInvestigations([report]);

    const [webhook] = await investigationWebhooksOf(report.id, 1);
    expect(webhook.payload).toEqual({
      notification: {
        id: expect.any(String),
        title: 'Investigation Update: Impossible travel by Ada',
        body: [
          'The investigation for Ada Lovelace has been completed.',
          'Outcome: Confirmed risk',
          'Risk score: 8.5',
        ].join('\n'),
        action_url: `${APP_URL}/u/investigations/${report.id}`,
      },
      delivery: { id: webhook.webhookId, recipient_name: PROVIDER_NAME, channel: 'webhook' },
      investigation_metadata: {
        investigation_id: report.id,
        status: 'completed',
        outcome: 'confirmed_risk',
        headline: 'Impossible travel by Ada',
        person_name: 'Ada Lovelace',
        person_email: 'ada@example.com',
        detection_name: 'Impossible travel',
      },
    });
    expect(await webhook.enriched!).toMatchObject({
      id: report.id,
      summary: report.summary,
      confidence: report.confidence,
      recommended_action: report.recommended_action,
      findings: report.findings,
      person: report.person,
      detection: report.detection,
    });

    // A later investigation on the same partition shows the resend has been consumed.
    const marker = anInvestigationInput({
      id: keyOnPartitionOf(report.id, `inv-marker-${run}`, PARTITIONS),
      detection: report.detection,
    });
    await ingestInvestigations([report, marker]);
    await investigationWebhooksOf(marker.id, 1);
    expect(receiver.investigationWebhooks(report.id)).toHaveLength(1);

    await ingestInvestigations([
      { ...report, outcome: 'no_risk', updated_at: '2025-05-03T10:00:00.000Z' },
    ]);
    const [, update] = await investigationWebhooksOf(report.id, 2);
    expect(update.payload.notification.body).toContain('Outcome: No risk');
    expect(await update.enriched!).toMatchObject({ id: report.id, outcome: 'no_risk' });
  });

  it('redelivers a webhook the receiver failed, with the same webhook-id and body', async () => {
    receiver.failFirstAttemptFor(FLAKY);
    await ingestEvents(eventsOf(FLAKY, 1, Date.now() - 60_000));

    const [first, second] = await eventually(async () => {
      const got = receiver.attemptsFor(FLAKY);
      return got.length >= 2 ? got : undefined;
    });
    expect([first.status, second.status]).toEqual([500, 204]);
    expect(second.webhookId).toBe(first.webhookId);
    expect(second.payload.delivery.id).toBe(first.webhookId);
    expect(second.body).toBe(first.body);
    expect(counts(second)).toEqual([0, 1, 1]);
  });
});
