import { PAGERDUTY_EVENTS_URLS, type PagerDutyRegion } from './pagerduty/pagerduty-limits';
import type { SeverityMapping } from './pagerduty/severity-mapping';

export const DESTINATION_KINDS = ['webhook', 'slack', 'teams', 'pagerduty'] as const;

/**
 * What a destination receives: `webhook` the SPEC payload (the kind of every provider enrolled
 * before kinds existed), `slack` a Block Kit message for an incoming webhook, `teams` an
 * Adaptive Card for a workflow, `pagerduty` an Events API v2 trigger.
 */
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

export const DEFAULT_DESTINATION_KIND: DestinationKind = 'webhook';

/**
 * A validated destination (validateDestinationConfig). URLs of Slack and Teams and the PagerDuty
 * routing key are credentials: they are stored as secrets and never logged.
 */
export type DestinationConfig =
  | { kind: 'webhook'; url: string }
  | { kind: 'slack'; url: string }
  | { kind: 'teams'; url: string }
  | {
      kind: 'pagerduty';
      routingKey: string;
      severityMapping: SeverityMapping;
      source: string;
      region: PagerDutyRegion;
    };

/** Where a destination's requests go. */
export function destinationUrl(config: DestinationConfig): string {
  return config.kind === 'pagerduty' ? PAGERDUTY_EVENTS_URLS[config.region] : config.url;
}
