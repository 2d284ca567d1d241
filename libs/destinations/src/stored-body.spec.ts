import type { DestinationConfig } from './destination-config';
import { renderDestination } from './render-destination';
import { bodyToSend, renderStoredBody } from './stored-body';
import {
  aContext,
  aDetectionNotification,
  aPagerDutyDestination,
  ROUTING_KEY,
} from './testing/notifications';

const pagerDuty = aPagerDutyDestination();

describe('renderStoredBody and bodyToSend', () => {
  it('stores a PagerDuty event without its routing key and sends it with it, as rendered', () => {
    const notification = aDetectionNotification();
    const stored = renderStoredBody(notification, aContext(), pagerDuty);
    expect(stored).not.toContain(ROUTING_KEY);
    expect(JSON.parse(bodyToSend(stored, pagerDuty))).toEqual(
      JSON.parse(renderDestination(notification, aContext(), pagerDuty).body),
    );
  });

  it('sends the key the provider holds now, so a new routing key reaches pending deliveries', () => {
    const stored = renderStoredBody(aDetectionNotification(), aContext(), pagerDuty);
    const sent = JSON.parse(bodyToSend(stored, { ...pagerDuty, routingKey: 'K'.repeat(32) })) as {
      routing_key: string;
    };
    expect(sent.routing_key).toBe('K'.repeat(32));
  });

  it('stores and sends other kinds’ bodies exactly as rendered', () => {
    const slack: DestinationConfig = {
      kind: 'slack',
      url: 'https://hooks.slack.com/services/T/B/x',
    };
    const rendered = renderDestination(aDetectionNotification(), aContext(), slack).body;
    const stored = renderStoredBody(aDetectionNotification(), aContext(), slack);
    expect(stored).toBe(rendered);
    expect(bodyToSend(stored, slack)).toBe(stored);
  });
});
