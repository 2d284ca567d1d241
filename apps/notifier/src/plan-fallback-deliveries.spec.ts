import type { DeadDelivery, FallbackDestinationView } from '@vigil/control-plane';
import { aProviderTarget } from '../../../test/support/provider-targets';
import { deliveryId } from './plan-deliveries';
import { fallbackNotificationId, planFallbackDeliveries } from './plan-fallback-deliveries';

const APP = 'https://vigil.example.com';

const provider = aProviderTarget;

function dead(overrides: Partial<DeadDelivery> = {}): DeadDelivery {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    notificationId: 'n-1',
    kind: 'detection',
    channel: 'webhook',
    target: 'pd',
    subjectId: 'det-1',
    payload: '{"delivery":{"id":"x"}}',
    attempts: 8,
    lastStatusCode: 503,
    lastError: 'HTTP 503',
    diedAt: new Date(Date.UTC(2026, 0, 1)),
    ...overrides,
  };
}

function destination(overrides: Partial<FallbackDestinationView> = {}): FallbackDestinationView {
  return {
    scope: '*',
    providerId: 'slack',
    providerName: 'Provider slack',
    recipients: ['oncall@example.com'],
    updatedAt: new Date(0),
    ...overrides,
  };
}

const PROVIDERS = new Map([
  ['pd', provider('pd', { name: 'PagerDuty' })],
  [
    'slack',
    provider('slack', {
      destination: { kind: 'slack', url: 'https://hooks.slack.com/services/T/B/x' },
    }),
  ],
]);

describe('planFallbackDeliveries', () => {
  it('creates one delivery to the provider, in its kind, and one email per recipient', () => {
    const planned = planFallbackDeliveries(dead(), destination(), PROVIDERS, APP);
    const notificationId = fallbackNotificationId(dead().id);
    expect(planned.map((d) => [d.id, d.kind, d.channel, d.target, d.subjectId])).toEqual([
      [deliveryId(notificationId, 'webhook', 'slack'), 'fallback', 'webhook', 'slack', 'det-1'],
      [
        deliveryId(notificationId, 'email', 'oncall@example.com'),
        'fallback',
        'email',
        'oncall@example.com',
        'det-1',
      ],
    ]);
    expect(JSON.parse(planned[0].payloadJson!)).toMatchObject({
      text: expect.stringContaining('Delivery to PagerDuty failed') as unknown,
    });
    expect(planned[1].payload).toMatchObject({
      to: 'oncall@example.com',
      subject: '[Vigil] Delivery to PagerDuty failed',
    });
  });

  it('derives the same ids on every run, so a second sweep creates nothing new', () => {
    expect(planFallbackDeliveries(dead(), destination(), PROVIDERS, APP)).toEqual(
      planFallbackDeliveries(dead(), destination(), PROVIDERS, APP),
    );
  });

  it('does not fall back for a fallback or a notice that died, nor without a destination', () => {
    expect(
      planFallbackDeliveries(dead({ kind: 'fallback' }), destination(), PROVIDERS, APP),
    ).toEqual([]);
    expect(planFallbackDeliveries(dead({ kind: 'notice' }), destination(), PROVIDERS, APP)).toEqual(
      [],
    );
    expect(planFallbackDeliveries(dead(), null, PROVIDERS, APP)).toEqual([]);
  });

  it('does not send to the target that just failed', () => {
    const toItself = planFallbackDeliveries(
      dead({ target: 'slack' }),
      destination(),
      PROVIDERS,
      APP,
    );
    expect(toItself.map((d) => d.target)).toEqual(['oncall@example.com']);
    const email = dead({
      channel: 'email',
      target: 'OnCall@example.com',
      kind: 'digest',
      subjectId: null,
    });
    expect(
      planFallbackDeliveries(email, destination(), PROVIDERS, APP).map((d) => d.target),
    ).toEqual(['slack']);
  });

  it('leaves out a deleted provider and records a disabled one as skipped', () => {
    const deleted = new Map([...PROVIDERS, ['slack', provider('slack', { deleted: true })]]);
    expect(
      planFallbackDeliveries(dead(), destination(), deleted, APP).map((d) => d.channel),
    ).toEqual(['email']);
    const disabled = new Map([...PROVIDERS, ['slack', provider('slack', { disabled: true })]]);
    expect(planFallbackDeliveries(dead(), destination(), disabled, APP)[0]).toMatchObject({
      skippedBecause: 'Provider disabled',
      skipCause: 'disabled',
    });
  });
});
