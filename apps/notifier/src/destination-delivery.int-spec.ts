import { NO_PROVIDER_FILTER } from '@vigil/notification-policy';
import type { NotificationCommand } from '@vigil/contracts';
import type { ClaimedDelivery, NewDelivery, WebhookProviderTarget } from '@vigil/control-plane';
import { DEFAULT_SEVERITY_MAPPING, type DestinationConfig } from '@vigil/destinations';
import {
  aWebhookDecision,
  anInvestigationWebhookDecision,
  commandOf,
} from '../../../test/support/notification-commands';
import { PagerDutyReceiver } from '../../../test/support/pagerduty-receiver';
import { SlackReceiver } from '../../../test/support/slack-receiver';
import { TeamsReceiver } from '../../../test/support/teams-receiver';
import { planDeliveries } from './plan-deliveries';
import { planFallbackDeliveries } from './plan-fallback-deliveries';
import { WebhookSender } from './webhook-sender';

/**
 * A notification planned for Slack, Teams and PagerDuty providers and sent by the notifier's
 * sender to local stand-ins of those services, which check each one's documented request format
 * and answer as the service does.
 */

const APP = 'https://vigil.example.com';
const ROUTING_KEY = 'R0ABCDEFGHIJKLMNOPQRSTUVWXYZ0123';

let slack: SlackReceiver;
let teams: TeamsReceiver;
let pagerDuty: PagerDutyReceiver;

beforeAll(async () => {
  [slack, teams, pagerDuty] = await Promise.all([
    SlackReceiver.start(),
    TeamsReceiver.start(),
    PagerDutyReceiver.start(),
  ]);
});

afterAll(async () => {
  await Promise.all([slack.stop(), teams.stop(), pagerDuty.stop()]);
});

function providers(): Map<string, WebhookProviderTarget> {
  const target = (id: string, destination: DestinationConfig): WebhookProviderTarget => ({
    id,
    name: `Provider ${id}`,
    destination,
    url: 'https://listed.example.com/…',
    filter: NO_PROVIDER_FILTER,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    deleted: false,
    disabled: false,
  });
  return new Map([
    ['slack', target('slack', { kind: 'slack', url: slack.webhookUrl() })],
    ['teams', target('teams', { kind: 'teams', url: teams.workflowUrl() })],
    [
      'pagerduty',
      target('pagerduty', {
        kind: 'pagerduty',
        routingKey: ROUTING_KEY,
        severityMapping: DEFAULT_SEVERITY_MAPPING,
        source: 'vigil',
        region: 'us',
      }),
    ],
  ]);
}

function sender(): WebhookSender {
  const directory = providers();
  return new WebhookSender({
    policy: { allowPrivate: true, allowlist: [] },
    timeoutMs: 2_000,
    provider: async (id) => directory.get(id),
    // PagerDuty's Events API, here the local stand-in; the others go where their URL says.
    urlOf: (destination) =>
      destination.kind === 'pagerduty' ? pagerDuty.eventsUrl() : destination.url,
  });
}

function claimed(delivery: NewDelivery): ClaimedDelivery {
  return {
    id: delivery.id,
    notificationId: delivery.notificationId,
    kind: delivery.kind,
    channel: delivery.channel,
    target: delivery.target,
    payload: delivery.payloadJson ?? JSON.stringify(delivery.payload),
    attemptCount: 0,
    seriesFailures: 0,
  };
}

function planned(
  decision: NotificationCommand['decision'] = aWebhookDecision({
    providerIds: ['slack', 'teams', 'pagerduty'],
  }),
) {
  const { deliveries } = planDeliveries(commandOf(decision), providers(), APP);
  return new Map(deliveries.map((d) => [d.target, claimed(d)]));
}

describe('deliveries to Slack, Teams and PagerDuty', () => {
  it('sends each service its own message, accepted by its documented format', async () => {
    const deliveries = planned();
    // The routing key is sealed with the provider: the delivery log holds the event without it.
    expect(deliveries.get('pagerduty')!.payload).not.toContain(ROUTING_KEY);
    const send = sender();
    try {
      const outcomes = await Promise.all(
        ['slack', 'teams', 'pagerduty'].map((id) => send.send(deliveries.get(id)!)),
      );
      expect(outcomes).toEqual([
        { ok: true, statusCode: 200, error: null },
        { ok: true, statusCode: 202, error: null },
        { ok: true, statusCode: 202, error: null },
      ]);
    } finally {
      send.close();
    }
    expect(slack.accepted).toHaveLength(1);
    expect(teams.accepted).toHaveLength(1);
    expect(pagerDuty.accepted).toHaveLength(1);
    expect(pagerDuty.accepted[0]).toMatchObject({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
    });
    for (const request of [...slack.received, ...teams.received, ...pagerDuty.received]) {
      expect(request.headers['content-type']).toBe('application/json');
      // Standard Webhooks headers are for `webhook` destinations: these services ignore them.
      expect(request.headers['webhook-signature']).toBeUndefined();
    }
  });

  it('renders investigations too, in every service’s format', async () => {
    const deliveries = planned(
      anInvestigationWebhookDecision({ providerIds: ['slack', 'teams', 'pagerduty'] }),
    );
    const send = sender();
    try {
      for (const id of ['slack', 'teams', 'pagerduty']) {
        expect(await send.send(deliveries.get(id)!)).toMatchObject({ ok: true });
      }
    } finally {
      send.close();
    }
  });

  it('retries PagerDuty only on 429 and 5xx: a 400 is final', async () => {
    const delivery = planned().get('pagerduty')!;
    const send = sender();
    try {
      pagerDuty.failNext(429);
      expect(await send.send(delivery)).toMatchObject({ ok: false, statusCode: 429 });
      pagerDuty.failNext(503);
      const unavailable = await send.send(delivery);
      expect(unavailable).toMatchObject({ ok: false, statusCode: 503, failure: 'http_error' });
      expect(unavailable.permanent).toBeUndefined();
      pagerDuty.failNext(400);
      expect(await send.send(delivery)).toMatchObject({
        ok: false,
        statusCode: 400,
        permanent: true,
      });
      expect(await send.send(delivery)).toMatchObject({ ok: true, statusCode: 202 });
    } finally {
      send.close();
    }
  });

  it('sends the same dedup key for every notification of a detection, so PagerDuty groups them', async () => {
    const detectionId = 'det-grouped';
    const first = planned(
      aWebhookDecision({ notificationId: 'n-1', detectionId, providerIds: ['pagerduty'] }),
    );
    const second = planned(
      aWebhookDecision({ notificationId: 'n-2', detectionId, providerIds: ['pagerduty'] }),
    );
    const keys = [first, second].map(
      (plan) => (JSON.parse(plan.get('pagerduty')!.payload) as { dedup_key: string }).dedup_key,
    );
    expect(keys[0]).toBe(keys[1]);
  });

  it('tells each service of a delivery that died, as a fallback destination, in its format', async () => {
    const dead = {
      id: '0f5b3c1e-2d4a-4b6c-8d9e-0a1b2c3d4e5f',
      notificationId: 'n-dead',
      kind: 'detection' as const,
      channel: 'webhook' as const,
      target: 'soar',
      subjectId: 'det-1',
      payload: '{"delivery":{"id":"0f5b3c1e-2d4a-4b6c-8d9e-0a1b2c3d4e5f"}}',
      attempts: 8,
      lastStatusCode: 503,
      lastError: 'HTTP 503: <b>unavailable</b> @channel',
      diedAt: new Date(Date.UTC(2026, 10, 26, 9)),
    };
    const before = [slack.accepted.length, teams.accepted.length, pagerDuty.accepted.length];
    const send = sender();
    try {
      for (const id of ['slack', 'teams', 'pagerduty']) {
        const [fallback] = planFallbackDeliveries(
          dead,
          { scope: '*', providerId: id, providerName: id, recipients: [], updatedAt: new Date() },
          providers(),
          APP,
        );
        expect(fallback.kind).toBe('fallback');
        expect(await send.send(claimed(fallback))).toMatchObject({ ok: true });
      }
    } finally {
      send.close();
    }
    expect([slack.accepted.length, teams.accepted.length, pagerDuty.accepted.length]).toEqual(
      before.map((count) => count + 1),
    );
    expect(pagerDuty.accepted.at(-1)).toMatchObject({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      dedup_key: `vigil-delivery-failed-${dead.id}`,
      payload: { severity: 'error' },
    });
  });
});
