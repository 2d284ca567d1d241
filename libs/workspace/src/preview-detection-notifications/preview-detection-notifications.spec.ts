import { DEFAULT_SEVERITY_MAPPING } from '@vigil/destinations';
import { buildDetectionWebhookPayload, renderDetectionEmail } from '@vigil/contracts';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  applyEvents,
  decide,
  type DetectionEvent,
  type DetectionState,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryReadModel } from '../testing/in-memory-read-model';
import { InMemorySettingsStore } from '../testing/in-memory-settings-store';
import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import {
  PLACEHOLDER_DELIVERY_ID,
  PreviewDetectionNotifications,
} from './preview-detection-notifications';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);
const MINUTE = 60_000;
const APP_URL = 'https://vigil.example.com';

function anEvent(n: number): DetectionEvent {
  return {
    id: `evt-${n}`,
    detectionId: 'det-1',
    detectionName: 'Impossible travel',
    personName: `Person ${n}`,
    personEmail: `person${n}@example.com`,
    description: `Sign-in from a new country (${n})`,
    timestamp: T0 + n * 1000,
    riskScore: n,
    source: 'okta',
  };
}

const stateOf = (count: number): DetectionState =>
  applyEvents(
    undefined,
    Array.from({ length: count }, (_, i) => anEvent(i + 1)),
    T0,
  ).state;

async function setUp(settings: Partial<NotificationSettings>, state: DetectionState | null) {
  const readModel = new InMemoryReadModel();
  readModel.addDetection('det-1', 3);
  if (state !== null) readModel.states.set('det-1', { snapshot: state, recordedAt: T0 + MINUTE });
  const store = new InMemorySettingsStore();
  const providers = new InMemoryWebhookProviders();
  const soar = providers.add('SOAR');
  await store.saveGlobal({
    ...DEFAULT_NOTIFICATION_SETTINGS,
    emailEnabled: true,
    recipients: ['soc@example.com'],
    webhookEnabled: true,
    webhookProviderIds: [soar.id],
    ...settings,
  });
  const preview = new PreviewDetectionNotifications(readModel, store, providers, {
    appUrl: APP_URL,
  });
  return { preview, store, providers, soar };
}

describe('PreviewDetectionNotifications', () => {
  it('shows the SPEC payload each provider would get now, as the notifier renders it, with a placeholder delivery id', async () => {
    const state = stateOf(3);
    const { preview, store, soar } = await setUp({ frequency: 'immediate' }, state);
    const now = T0 + 2 * MINUTE;
    const result = await preview.execute({ detectionId: 'det-1', now });

    const [decision] = decide(state, await store.getGlobal(), now).decisions;
    expect(decision.kind).toBe('webhook');
    const expected = buildDetectionWebhookPayload(
      decision as never,
      { id: PLACEHOLDER_DELIVERY_ID, recipientName: 'SOAR' },
      APP_URL,
    );
    const [webhook, email] = result.channels;
    expect(webhook).toMatchObject({ channel: 'webhook', fires: true, summary: 'Immediately' });
    expect(webhook.targets).toEqual([
      {
        id: soar.id,
        name: 'SOAR',
        sends: true,
        reason: null,
        reasonCode: null,
        payload: {
          kind: 'webhook',
          contentType: 'application/json',
          body: JSON.stringify(expected),
        },
      },
    ]);
    expect(JSON.parse((webhook.targets[0].payload as { body: string }).body)).toMatchObject({
      delivery: { id: PLACEHOLDER_DELIVERY_ID, recipient_name: 'SOAR', channel: 'webhook' },
      metadata: { detection_id: 'det-1', previous_count: 0, current_count: 3, event_count: 3 },
    });
    const rendered = renderDetectionEmail(
      decide(state, await store.getGlobal(), now).decisions[1] as never,
      APP_URL,
    );
    expect(email).toMatchObject({
      channel: 'email',
      fires: true,
      payload: { kind: 'email', subject: rendered.subject, text: rendered.text },
    });
    expect(result).toMatchObject({ recordedAt: T0 + MINUTE, count: 3, settingsSource: 'global' });
  });

  it('shows a Slack provider the Slack message it would get, and PagerDuty its event without the key', async () => {
    const state = stateOf(3);
    const { preview, store, providers, soar } = await setUp({ frequency: 'immediate' }, state);
    Object.assign(soar, { destination: 'slack' });
    const pagerDuty = providers.add('On-call');
    Object.assign(pagerDuty, {
      destination: 'pagerduty',
      pagerDuty: { severityMapping: DEFAULT_SEVERITY_MAPPING, source: 'vigil', region: 'us' },
    });
    await store.saveGlobal({
      ...(await store.getGlobal()),
      webhookProviderIds: [soar.id, pagerDuty.id],
    });
    const result = await preview.execute({ detectionId: 'det-1', now: T0 + 2 * MINUTE });
    const [slackBody, pagerDutyBody] = result.channels[0].targets.map(
      (target) => JSON.parse((target.payload as { body: string }).body) as Record<string, unknown>,
    );
    expect(slackBody).toMatchObject({ blocks: expect.any(Array) });
    expect(pagerDutyBody).toMatchObject({ event_action: 'trigger', dedup_key: expect.any(String) });
    expect(pagerDutyBody).not.toHaveProperty('routing_key');
  });

  it('shows a Batch email as this detection’s line of the digest, sent when the window closes', async () => {
    const { preview } = await setUp({ frequency: 'batch', batchWindowMinutes: 60 }, stateOf(2));
    const result = await preview.execute({ detectionId: 'det-1', now: T0 + 5 * MINUTE });
    const digest = result.channels[1];
    expect(digest).toMatchObject({
      channel: 'digest',
      fires: true,
      summary: 'At the close of the current batch window, at 2026-01-05 10:00:00 UTC',
    });
    expect(digest.payload).toMatchObject({
      subject: 'Vigil digest: 1 detection with new events',
      text: expect.stringContaining('  New events: 2'),
    });
  });

  it('says why nothing would be sent, for each channel and its targets', async () => {
    const config = { frequency: 'immediate' as const };
    const notified = decide(
      stateOf(3),
      {
        ...DEFAULT_NOTIFICATION_SETTINGS,
        ...config,
        webhookEnabled: true,
        webhookProviderIds: ['p'],
      },
      T0,
    ).state;
    const { preview } = await setUp({ ...config, emailEnabled: false }, notified);
    const [webhook, email] = (await preview.execute({ detectionId: 'det-1', now: T0 + MINUTE }))
      .channels;
    expect(webhook).toMatchObject({
      fires: false,
      reasonCode: 'count_not_risen',
      summary:
        'The event count has not risen since the last notification, at count 3 on 2026-01-05 09:00:00 UTC.',
    });
    expect(webhook.targets[0]).toMatchObject({
      sends: false,
      reasonCode: 'count_not_risen',
      payload: null,
    });
    expect(email).toMatchObject({
      channel: 'email',
      fires: false,
      reasonCode: 'channel_off',
      targets: [{ id: 'soc@example.com', sends: false }],
      payload: null,
    });
  });

  it('marks a selected provider that is no longer enrolled, and renders nothing for it', async () => {
    const { preview, providers, soar } = await setUp({ frequency: 'immediate' }, stateOf(1));
    await providers.delete(soar.id, anAuditContext());
    const [webhook] = (await preview.execute({ detectionId: 'det-1', now: T0 })).channels;
    expect(webhook.fires).toBe(true);
    expect(webhook.targets).toEqual([
      {
        id: soar.id,
        name: null,
        sends: false,
        reason: 'This provider is no longer enrolled: nothing is sent to it.',
        reasonCode: 'provider_not_enrolled',
        payload: null,
      },
    ]);
  });

  it("marks a provider whose filter would hold the notification back, with the filter's reason", async () => {
    const { preview, providers, soar } = await setUp({ frequency: 'immediate' }, stateOf(1));
    await providers.setFilter(soar.id, { subjects: 'investigations' }, anAuditContext());
    const [webhook] = (await preview.execute({ detectionId: 'det-1', now: T0 })).channels;
    expect(webhook.fires).toBe(true);
    expect(webhook.targets).toMatchObject([
      {
        id: soar.id,
        name: 'SOAR',
        sends: false,
        reason: 'Filtered out: this provider receives investigations only.',
        reasonCode: 'filtered_subject',
      },
    ]);
  });

  it('says the state is not recorded yet when the read model has none', async () => {
    const { preview } = await setUp({}, null);
    const result = await preview.execute({ detectionId: 'det-1', now: T0 });
    expect(result).toMatchObject({ recordedAt: null, count: null, channels: [], dryRun: null });
    expect(result.detectionName).toBe('Detection det-1');
  });

  it('refuses an unknown detection', async () => {
    const { preview } = await setUp({}, stateOf(1));
    await expect(preview.execute({ detectionId: 'det-typo', now: T0 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
