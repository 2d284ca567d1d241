import { DEFAULT_SEVERITY_MAPPING } from '@vigil/destinations';
import { TEST_NOTIFICATION_PREFIX, testEventDelivery } from './test-event-delivery';

describe('a test event delivery', () => {
  it('is a detection payload of SPEC §6.2 addressed to the provider, with its own ids', () => {
    const now = Date.parse('2026-03-03T09:05:00Z');
    const delivery = testEventDelivery(
      { id: 'provider-1', name: 'SOAR', destination: 'webhook' },
      { deliveryId: 'delivery-1', notificationId: 'n-1' },
      'https://vigil.example.com',
      now,
    );
    expect(delivery).toMatchObject({
      id: 'delivery-1',
      notificationId: `${TEST_NOTIFICATION_PREFIX}n-1`,
      kind: 'detection',
      channel: 'webhook',
      target: 'provider-1',
      subjectId: null,
    });
    expect(delivery.payload).toMatchObject({
      notification: {
        id: `${TEST_NOTIFICATION_PREFIX}n-1`,
        title: 'Vigil test event: 1 new events',
        action_url: 'https://vigil.example.com/u/detections/vigil-test-event',
      },
      delivery: { id: 'delivery-1', recipient_name: 'SOAR', channel: 'webhook' },
      metadata: {
        detection_id: 'vigil-test-event',
        event_count: 1,
        affected_users: ['test.user@example.com'],
        events: [{ id: 'vigil-test-event-1', person_name: 'Test User', timestamp: now }],
      },
    });
  });

  it('is a Slack message for a Slack provider, and a PagerDuty event without its key for PagerDuty', () => {
    const now = Date.parse('2026-03-03T09:05:00Z');
    const ids = { deliveryId: 'delivery-2', notificationId: 'n-2' };
    const slack = testEventDelivery(
      { id: 'p-slack', name: 'SOC', destination: 'slack' },
      ids,
      'https://vigil.example.com',
      now,
    );
    expect(JSON.parse(slack.payloadJson!)).toMatchObject({ blocks: expect.any(Array) });
    const pagerDuty = testEventDelivery(
      {
        id: 'p-pd',
        name: 'On-call',
        destination: 'pagerduty',
        pagerDuty: {
          severityMapping: DEFAULT_SEVERITY_MAPPING,
          source: 'vigil',
          region: 'us',
        },
      },
      ids,
      'https://vigil.example.com',
      now,
    );
    const event = JSON.parse(pagerDuty.payloadJson!) as Record<string, unknown>;
    expect(event).toMatchObject({ event_action: 'trigger' });
    expect(event).not.toHaveProperty('routing_key');
  });
});
