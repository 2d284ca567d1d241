import type { WebhookDecision } from '../notification-decision';

/** 2024-05-01T10:00:00.000Z */
const T0 = Date.UTC(2024, 4, 1, 10, 0, 0);
const MINUTE = 60_000;

/**
 * A detection's third webhook decision: two new events from two people, 2 h 5 min after the
 * last notification. Every field fixed, so rendered payloads can be compared whole.
 */
export function aWebhookDecision(overrides: Partial<WebhookDecision> = {}): WebhookDecision {
  return {
    kind: 'webhook',
    channel: 'webhook',
    notificationId: '3f2c1a9e-0000-5000-8000-000000000001',
    detectionId: 'det-42',
    detectionName: 'Impossible travel',
    previousCount: 3,
    currentCount: 5,
    since: T0,
    eventCount: 2,
    userCount: 2,
    affectedUsers: [
      { email: 'ada@example.com', name: 'Ada Lovelace' },
      { email: 'alan@example.com', name: 'Alan Turing' },
    ],
    decidedAt: T0 + 125 * MINUTE,
    events: [
      {
        id: 'evt-4',
        personName: 'Ada Lovelace',
        personEmail: 'ada@example.com',
        description: 'Sign-in from a new country',
        timestamp: T0 + MINUTE,
      },
      {
        id: 'evt-5',
        personName: 'Alan Turing',
        personEmail: 'alan@example.com',
        description: 'Sign-in from two continents',
        timestamp: T0 + 2 * MINUTE,
      },
    ],
    truncatedCount: 0,
    maxRiskScore: 7.5,
    sources: ['okta'],
    providerIds: ['provider-1'],
    ...overrides,
  };
}
