import type { DetectionNotice, InvestigationUpdate, PayloadDelivery } from '@vigil/contracts';

/**
 * A detection notification as every destination renders it: the webhook decision's fields
 * (SPEC §6.2 in camelCase, the attached events included) and two facts the SPEC payload does not
 * carry but chat and paging targets need.
 */
export interface DetectionNotification extends DetectionNotice {
  subject: 'detection';
  /**
   * The highest risk score among the new events of this notification (all of them, not only
   * the attached ones); null when none has a score. PagerDuty's severity comes from it.
   */
  maxRiskScore: number | null;
  /**
   * The distinct sources (connected systems, e.g. `okta`) of the new events of this notification,
   * in first-seen order. Source filters and PagerDuty's `component` use them.
   */
  sources: string[];
}

/** An investigation notification (SPEC §6.3); its risk score is the investigation's own. */
export interface InvestigationNotification extends InvestigationUpdate {
  subject: 'investigation';
}

/** What a destination renders: one notification, the same for every kind of destination. */
export type DestinationNotification = DetectionNotification | InvestigationNotification;

/** Where and for whom a notification is rendered. */
export interface RenderContext {
  /** {app_url}: links point to `${appUrl}/u/detections/<id>` or `/u/investigations/<id>`. */
  appUrl: string;
  /** The delivery: its id is the SPEC payload's `delivery.id` (and PagerDuty's detail). */
  delivery: PayloadDelivery;
}
