import type { DestinationConfig } from './destination-config';
import type { DestinationNotification, RenderContext } from './destination-notification';
import { renderPagerDuty } from './pagerduty/render-pagerduty';
import type { RenderedBody } from './rendered-body';
import { renderSlack } from './slack/render-slack';
import { renderTeams } from './teams/render-teams';
import { renderWebhook } from './webhook/render-webhook';

/** The body a destination of this kind receives for this notification. Pure. */
export function renderDestination(
  notification: DestinationNotification,
  context: RenderContext,
  config: DestinationConfig,
): RenderedBody {
  switch (config.kind) {
    case 'webhook':
      return renderWebhook(notification, context);
    case 'slack':
      return renderSlack(notification, context);
    case 'teams':
      return renderTeams(notification, context);
    case 'pagerduty':
      return renderPagerDuty(notification, context, config);
  }
}
