import { type WebhookProviderView } from '@vigil/control-plane';
import { type DestinationConfig } from '@vigil/destinations';

/**
 * What a Slack, Teams or PagerDuty provider's test message is rendered with; null for a SPEC
 * webhook. Credentials are not needed to render (the routing key is added when sending).
 */
export function renderingConfigOf(
  provider: Pick<WebhookProviderView, 'destination' | 'pagerDuty'>,
): DestinationConfig | null {
  switch (provider.destination) {
    case 'webhook':
      return null;
    case 'slack':
    case 'teams':
      return { kind: provider.destination, url: '' };
    case 'pagerduty':
      if (!provider.pagerDuty) throw new Error('A PagerDuty provider without its settings');
      return {
        kind: 'pagerduty',
        routingKey: '',
        severityMapping: provider.pagerDuty.severityMapping,
        source: provider.pagerDuty.source,
        region: provider.pagerDuty.region,
      };
  }
}
