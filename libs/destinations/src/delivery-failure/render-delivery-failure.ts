import type { DestinationConfig } from '../destination-config';
import {
  DEFAULT_PAGERDUTY_SOURCE,
  PAGERDUTY_LIMITS,
  PAGERDUTY_RENDER_LIMITS,
} from '../pagerduty/pagerduty-limits';
import { bounded } from '../notification-view';
import { renderSlackView } from '../slack/render-slack';
import { renderTeamsView } from '../teams/render-teams';
import { truncateText } from '../text/truncate-text';
import type { DeliveryFailure } from './delivery-failure';
import { failureView } from './failure-view';

/** The type of the JSON event a `webhook` fallback destination receives. */
export const DELIVERY_FAILED_EVENT_TYPE = 'delivery.failed';

/**
 * The body a fallback provider receives for a delivery that died, in its own kind, as the
 * delivery log stores it (PagerDuty's routing key is added at send, as for every PagerDuty
 * body): `webhook` a `delivery.failed` JSON event carrying the original body; Slack and Teams
 * a message; PagerDuty an `error` trigger, one alert per failed delivery. Pure.
 */
export function renderDeliveryFailure(
  failure: DeliveryFailure,
  appUrl: string,
  config: DestinationConfig,
): string {
  const view = failureView(failure, appUrl);
  switch (config.kind) {
    case 'webhook':
      return JSON.stringify({
        type: DELIVERY_FAILED_EVENT_TYPE,
        timestamp: new Date(failure.diedAt).toISOString(),
        data: {
          delivery_id: failure.deliveryId,
          notification_id: failure.notificationId,
          kind: failure.kind,
          subject_id: failure.subjectId,
          link: view.url,
          target: failure.target,
          failure: {
            attempts: failure.attempts,
            last_status_code: failure.lastStatusCode,
            last_error: failure.lastError,
            died_at: new Date(failure.diedAt).toISOString(),
          },
          payload: failure.payload,
        },
      });
    case 'slack':
      return renderSlackView(view, 0).body;
    case 'teams':
      return renderTeamsView(view, 0).body;
    case 'pagerduty': {
      const label = (text: string) => bounded(text, PAGERDUTY_RENDER_LIMITS.label);
      return JSON.stringify({
        event_action: 'trigger',
        dedup_key: truncateText(
          `vigil-delivery-failed-${failure.deliveryId}`,
          PAGERDUTY_RENDER_LIMITS.id,
        ),
        payload: {
          summary: truncateText(`${view.title}: ${view.lines[0]}`, PAGERDUTY_LIMITS.summary),
          source: label(config.source).trim() || DEFAULT_PAGERDUTY_SOURCE,
          severity: 'error',
          timestamp: new Date(failure.diedAt).toISOString(),
          group: label(failure.target.name),
          class: 'delivery_failed',
          custom_details: {
            delivery_id: failure.deliveryId,
            notification_id: failure.notificationId,
            kind: failure.kind,
            subject_id: failure.subjectId,
            target: `${failure.target.channel}: ${label(failure.target.name)}`,
            attempts: failure.attempts,
            last_status_code: failure.lastStatusCode,
            last_error:
              view.lines.find((line) => line.startsWith('Last error: '))?.slice(12) ?? null,
          },
        },
        client: 'Vigil',
        client_url: appUrl,
        links:
          view.url.length <= PAGERDUTY_RENDER_LIMITS.url
            ? [{ href: view.url, text: `${view.actionLabel} in Vigil` }]
            : [],
      });
    }
  }
}
