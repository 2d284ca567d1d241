import { aWebhookDecision } from './testing/decision-factories';
import { buildDetectionWebhookPayload } from './detection-webhook-payload';

const T0 = Date.UTC(2024, 4, 1, 10, 0, 0);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe('buildDetectionWebhookPayload', () => {
  it('renders every field of SPEC §6.2', () => {
    const payload = buildDetectionWebhookPayload(
      aWebhookDecision(),
      { id: 'delivery-1', recipientName: 'Tines' },
      'https://vigil.example.com',
    );
    expect(payload).toEqual({
      notification: {
        id: '3f2c1a9e-0000-5000-8000-000000000001',
        title: 'Impossible travel: 2 new events',
        body: [
          'Detection "Impossible travel" has new events.',
          'New events since last notification: 2',
          'Events attached: 2',
          'Affected users: 2',
          'Time since last notification: 2 hours 5 minutes',
        ].join('\n'),
        action_url: 'https://vigil.example.com/u/detections/det-42',
      },
      delivery: { id: 'delivery-1', recipient_name: 'Tines', channel: 'webhook' },
      metadata: {
        detection_id: 'det-42',
        previous_count: 3,
        current_count: 5,
        since: T0,
        event_count: 2,
        user_count: 2,
        affected_users: ['ada@example.com', 'alan@example.com'],
        events: [
          {
            id: 'evt-4',
            person_name: 'Ada Lovelace',
            description: 'Sign-in from a new country',
            timestamp: T0 + MINUTE,
          },
          {
            id: 'evt-5',
            person_name: 'Alan Turing',
            description: 'Sign-in from two continents',
            timestamp: T0 + 2 * MINUTE,
          },
        ],
        truncated_count: 0,
      },
    });
  });

  it('counts all new events in the title and body when the attached list is capped', () => {
    const decision = aWebhookDecision({
      previousCount: 0,
      currentCount: 7000,
      eventCount: 7000,
      truncatedCount: 6998,
    });
    const payload = buildDetectionWebhookPayload(decision, { id: 'd', recipientName: 'n' }, 'x:');
    expect(payload.notification.title).toBe('Impossible travel: 7000 new events');
    expect(payload.notification.body.split('\n').slice(1, 3)).toEqual([
      'New events since last notification: 7000',
      'Events attached: 2',
    ]);
    expect(payload.metadata.event_count).toBe(7000);
    expect(payload.metadata.events).toHaveLength(2);
    expect(payload.metadata.truncated_count).toBe(6998);
  });

  it('says that a channel’s first notification is the first, keeping metadata.since', () => {
    const decision = aWebhookDecision({ previousCount: 0, eventCount: 5, since: T0 - 573 * DAY });
    const payload = buildDetectionWebhookPayload(decision, { id: 'd', recipientName: 'n' }, 'x:');
    expect(payload.notification.body.split('\n')[4]).toBe('First notification for this detection.');
    expect(payload.notification.body).not.toContain('Time since last notification');
    expect(payload.metadata).toMatchObject({ previous_count: 0, since: T0 - 573 * DAY });
  });

  it('leaves out the risk score and sources, which are not part of SPEC §6.2', () => {
    const payload = buildDetectionWebhookPayload(
      aWebhookDecision(),
      { id: 'd', recipientName: 'n' },
      'x:',
    );
    expect(JSON.stringify(payload)).not.toMatch(/maxRiskScore|max_risk_score|sources/);
  });

  it('keeps the detection name as it is in the title, markup included', () => {
    const decision = aWebhookDecision({ detectionName: '<b>Odd</b> name', eventCount: 1 });
    const payload = buildDetectionWebhookPayload(decision, { id: 'd', recipientName: 'n' }, 'x:');
    expect(payload.notification.title).toBe('<b>Odd</b> name: 1 new events');
  });
});
