import { NO_PROVIDER_FILTER } from '@vigil/notification-policy';
import type { WebhookProviderTarget } from '@vigil/control-plane';
import {
  aDigestEntryDecision,
  aWebhookDecision,
  anEmailDecision,
  commandOf,
} from '../../../test/support/notification-commands';
import { aProviderTarget } from '../../../test/support/provider-targets';
import { deliveryId, planDeliveries } from './plan-deliveries';

const APP = 'https://vigil.example.com';

function provider(id: string, deleted = false): WebhookProviderTarget {
  return aProviderTarget(id, { deleted });
}

describe('planDeliveries', () => {
  it('plans one webhook delivery per live provider, its id inside the rendered payload', () => {
    const decision = aWebhookDecision({ providerIds: ['a', 'b', 'gone', 'unknown', 'a'] });
    const providers = new Map([
      ['a', provider('a')],
      ['b', provider('b')],
      ['gone', provider('gone', true)],
    ]);
    const { deliveries, digestEntries } = planDeliveries(commandOf(decision), providers, APP);
    expect(digestEntries).toEqual([]);
    expect(deliveries.map((d) => [d.target, d.channel, d.kind])).toEqual([
      ['a', 'webhook', 'detection'],
      ['b', 'webhook', 'detection'],
    ]);
    const [first] = deliveries;
    expect(first.id).toBe(deliveryId(decision.notificationId, 'webhook', 'a'));
    expect(first.payload).toMatchObject({
      delivery: { id: first.id, recipient_name: 'Provider a', channel: 'webhook' },
      notification: { id: decision.notificationId },
    });
  });

  it("records a notification a provider's filter holds back as skipped, with the reason and the body it would have had", () => {
    const decision = aWebhookDecision({
      providerIds: ['all', 'high', 'github'],
      maxRiskScore: 6.5,
      sources: ['okta'],
    });
    const providers = new Map([
      ['all', provider('all')],
      ['high', { ...provider('high'), filter: { ...NO_PROVIDER_FILTER, minRiskScore: 7 } }],
      ['github', { ...provider('github'), filter: { ...NO_PROVIDER_FILTER, sources: ['github'] } }],
    ]);
    const { deliveries } = planDeliveries(commandOf(decision), providers, APP);
    expect(deliveries.map((d) => [d.target, d.skippedBecause])).toEqual([
      ['all', undefined],
      ['high', "Filtered out: risk score 6.5 is below this provider's minimum of 7."],
      [
        'github',
        'Filtered out: the events come from okta, and this provider receives github only.',
      ],
    ]);
    expect(deliveries[1].payload).toMatchObject({ delivery: { id: deliveries[1].id } });
  });

  it("records a disabled provider's delivery as skipped while disabled, ahead of its filter", () => {
    const decision = aWebhookDecision({ providerIds: ['on', 'off'], maxRiskScore: 1 });
    const providers = new Map([
      ['on', provider('on')],
      [
        'off',
        {
          ...provider('off'),
          disabled: true,
          filter: { ...NO_PROVIDER_FILTER, minRiskScore: 7 },
        },
      ],
    ]);
    const { deliveries } = planDeliveries(commandOf(decision), providers, APP);
    expect(deliveries.map((d) => [d.target, d.skippedBecause, d.skipCause])).toEqual([
      ['on', undefined, undefined],
      ['off', 'Provider disabled', 'disabled'],
    ]);
  });

  it('derives the same ids from a replayed command', () => {
    const command = commandOf(anEmailDecision({ recipients: ['soc@example.com'] }));
    const again = planDeliveries(command, new Map(), APP);
    expect(planDeliveries(command, new Map(), APP)).toEqual(again);
  });

  it('plans one email per distinct recipient, addresses normalized', () => {
    const decision = anEmailDecision({
      recipients: ['SOC@example.com', ' soc@example.com', 'ir@example.com'],
    });
    const { deliveries } = planDeliveries(commandOf(decision), new Map(), APP);
    expect(deliveries.map((d) => d.target)).toEqual(['soc@example.com', 'ir@example.com']);
    expect(deliveries[0].payload).toMatchObject({
      to: 'soc@example.com',
      subject: 'Impossible travel: 2 new events',
    });
  });

  it('turns a digest entry into one line per recipient and no delivery', () => {
    const decision = aDigestEntryDecision({ recipients: ['a@example.com', 'b@example.com'] });
    const { deliveries, digestEntries } = planDeliveries(commandOf(decision), new Map(), APP);
    expect(deliveries).toEqual([]);
    expect(digestEntries).toEqual(
      ['a@example.com', 'b@example.com'].map((recipient) => ({
        entryKey: decision.entryKey,
        recipient,
        windowStart: decision.windowStart,
        windowEnd: decision.windowEnd,
        detectionId: decision.detectionId,
        detectionName: decision.detectionName,
        newCount: decision.windowNewCount,
        currentCount: decision.currentCount,
        userCount: decision.userCount,
        affectedUsers: ['ada@example.com', 'alan@example.com'],
      })),
    );
  });
});
