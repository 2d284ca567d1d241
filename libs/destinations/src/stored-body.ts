import type { DestinationConfig } from './destination-config';
import type { DestinationNotification, RenderContext } from './destination-notification';
import { renderDestination } from './render-destination';

/**
 * The body of a delivery as the delivery log stores it: rendered once, credentials left out.
 * PagerDuty's event carries the routing key, which is sealed with the provider and must not sit
 * in the log in the open; the notifier puts it back at each attempt (bodyToSend). Pure.
 */
export function renderStoredBody(
  notification: DestinationNotification,
  context: RenderContext,
  config: DestinationConfig,
): string {
  const { body } = renderDestination(notification, context, config);
  if (config.kind !== 'pagerduty') return body;
  const { routing_key: _routingKey, ...event } = JSON.parse(body) as Record<string, unknown>;
  return JSON.stringify(event);
}

/** What is sent for a stored body: PagerDuty's routing key first, as the Events API shows it. */
export function bodyToSend(stored: string, config: DestinationConfig): string {
  if (config.kind !== 'pagerduty') return stored;
  return JSON.stringify({
    routing_key: config.routingKey,
    ...(JSON.parse(stored) as Record<string, unknown>),
  });
}
