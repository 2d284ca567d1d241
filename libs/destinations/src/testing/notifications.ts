import { aWebhookDecision } from '@vigil/contracts';
import type { DestinationConfig } from '../destination-config';
import { DEFAULT_SEVERITY_MAPPING } from '../pagerduty/severity-mapping';
import type {
  DetectionNotification,
  InvestigationNotification,
  RenderContext,
} from '../destination-notification';

/** 2024-05-01T10:00:00.000Z */
export const T0 = Date.UTC(2024, 4, 1, 10, 0, 0);
export const MINUTE = 60_000;

export const ROUTING_KEY = 'R0ABCDEFGHIJKLMNOPQRSTUVWXYZ0123';

/** A detection's third notification: two new events from two people, 2 h 5 min after the last. */
export function aDetectionNotification(
  overrides: Partial<DetectionNotification> = {},
): DetectionNotification {
  const { kind: _kind, channel: _channel, providerIds: _providers, ...notice } = aWebhookDecision();
  return { subject: 'detection', ...notice, ...overrides };
}

/** `count` new events evt-1..evt-count, one second apart, all attached. */
export function manyEvents(count: number): DetectionNotification['events'] {
  return Array.from({ length: count }, (_, i) => ({
    id: `evt-${i + 1}`,
    personName: `Person ${i + 1}`,
    personEmail: `person${i + 1}@example.com`,
    description: `Event number ${i + 1}`,
    timestamp: T0 + (i + 1) * 1000,
  }));
}

export function anInvestigationNotification(
  overrides: Partial<InvestigationNotification> = {},
): InvestigationNotification {
  return {
    subject: 'investigation',
    notificationId: '3f2c1a9e-0000-5000-8000-000000000002',
    investigationId: 'inv-7',
    status: 'completed',
    outcome: 'confirmed_risk',
    headline: 'Credential stuffing against Ada',
    personName: 'Ada Lovelace',
    personEmail: 'ada@example.com',
    detectionId: 'det-42',
    detectionName: 'Impossible travel',
    riskScore: 9.2,
    fingerprint: 'f00d',
    decidedAt: T0 + 30 * MINUTE,
    ...overrides,
  };
}

export function aContext(overrides: Partial<RenderContext> = {}): RenderContext {
  return {
    appUrl: 'https://vigil.example.com',
    delivery: { id: '0b7c1f5e-3a55-4a8e-9a1c-2f0f1b9c7d11', recipientName: 'SOC channel' },
    ...overrides,
  };
}

/** A PagerDuty destination of the US region with the default severity mapping. */
export function aPagerDutyDestination(): Extract<DestinationConfig, { kind: 'pagerduty' }> {
  return {
    kind: 'pagerduty',
    routingKey: ROUTING_KEY,
    severityMapping: DEFAULT_SEVERITY_MAPPING,
    source: 'vigil',
    region: 'us',
  };
}
