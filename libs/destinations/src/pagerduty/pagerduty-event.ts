import type { PagerDutySeverity } from './severity-mapping';

/** An Events API v2 alert event, as Vigil sends it (a trigger). */
export interface PagerDutyEvent {
  routing_key: string;
  event_action: 'trigger';
  dedup_key: string;
  payload: {
    summary: string;
    source: string;
    severity: PagerDutySeverity;
    /** ISO 8601: when Vigil decided to notify. */
    timestamp?: string;
    component?: string;
    group: string;
    class: 'detection' | 'investigation';
    custom_details: Record<string, unknown>;
  };
  client: 'Vigil';
  client_url: string;
  links: { href: string; text: string }[];
}
