import type {
  DestinationNotification,
  DetectionNotification,
  InvestigationNotification,
  RenderContext,
} from '../destination-notification';
import { bounded, isDateMs, viewOf, VIEW_LIMITS } from '../notification-view';
import { jsonBody, type RenderedBody } from '../rendered-body';
import { sanitizeText } from '../text/sanitize-text';
import { truncateText } from '../text/truncate-text';
import { utf8Length } from '../text/utf8-length';
import { pagerDutyDedupKey } from './pagerduty-dedup-key';
import type { PagerDutyEvent } from './pagerduty-event';
import {
  DEFAULT_PAGERDUTY_SOURCE,
  PAGERDUTY_LIMITS,
  PAGERDUTY_RENDER_LIMITS,
} from './pagerduty-limits';
import { severityFor, type SeverityMapping } from './severity-mapping';

export interface PagerDutyOptions {
  /** The Events API v2 integration key of the PagerDuty service (validatePagerDutyRoutingKey). */
  routingKey: string;
  severityMapping: SeverityMapping;
  /** `payload.source`: how PagerDuty names the system the alert is about; "vigil" when empty. */
  source: string;
}

/**
 * The notification as a PagerDuty Events API v2 trigger: one alert per detection or
 * investigation (see pagerDutyDedupKey), the title as summary, the severity from the highest
 * risk score through the destination's mapping, the counts and event ids in custom_details and
 * a link to the web application. PagerDuty shows these fields as plain text; JSON encoding is
 * their only escaping, and user text is sanitized and bounded like everywhere else. Pure.
 */
export function renderPagerDuty(
  notification: DestinationNotification,
  context: RenderContext,
  options: PagerDutyOptions,
): RenderedBody {
  const view = viewOf(notification, context.appUrl);
  const score =
    notification.subject === 'detection' ? notification.maxRiskScore : notification.riskScore;
  const label = (text: string) => bounded(text, PAGERDUTY_RENDER_LIMITS.label);
  const component =
    notification.subject === 'detection' && notification.sources.length > 0
      ? label(notification.sources.join(', '))
      : undefined;
  const event: PagerDutyEvent = {
    routing_key: options.routingKey,
    event_action: 'trigger',
    dedup_key: pagerDutyDedupKey(notification),
    payload: {
      summary: truncateText(view.title, PAGERDUTY_LIMITS.summary),
      source: label(options.source).trim() || DEFAULT_PAGERDUTY_SOURCE,
      severity: severityFor(score, options.severityMapping),
      ...(isDateMs(notification.decidedAt)
        ? { timestamp: new Date(notification.decidedAt).toISOString() }
        : {}),
      ...(component === undefined ? {} : { component }),
      group: label(notification.detectionName),
      class: notification.subject,
      custom_details:
        notification.subject === 'detection'
          ? detectionDetails(notification, context)
          : investigationDetails(notification, context),
    },
    client: 'Vigil',
    client_url: context.appUrl,
    links:
      view.url.length <= PAGERDUTY_RENDER_LIMITS.url
        ? [{ href: view.url, text: `${view.actionLabel} in Vigil` }]
        : [],
  };
  return jsonBody(event);
}

const id = (value: string) => truncateText(sanitizeText(value), PAGERDUTY_RENDER_LIMITS.id);

function detectionDetails(
  notification: DetectionNotification,
  context: RenderContext,
): Record<string, unknown> {
  const eventIds = newestEventIds(notification);
  const first = notification.previousCount === 0;
  return {
    detection_id: id(notification.detectionId),
    detection_name: bounded(notification.detectionName, VIEW_LIMITS.detectionName),
    new_events: notification.eventCount,
    previous_count: notification.previousCount,
    current_count: notification.currentCount,
    affected_users: notification.userCount,
    max_risk_score: notification.maxRiskScore,
    sources: notification.sources
      .slice(0, PAGERDUTY_RENDER_LIMITS.sources)
      .map((source) => bounded(source, VIEW_LIMITS.source)),
    first_notification: first,
    last_notification_at:
      !first && isDateMs(notification.since) ? new Date(notification.since).toISOString() : null,
    event_ids: eventIds,
    unlisted_events: Math.max(0, notification.eventCount - eventIds.length),
    notification_id: id(notification.notificationId),
    delivery_id: id(context.delivery.id),
  };
}

/** The newest attached event ids first, within PAGERDUTY_RENDER_LIMITS. */
function newestEventIds(notification: DetectionNotification): string[] {
  const ids: string[] = [];
  let bytes = 0;
  for (let i = notification.events.length - 1; i >= 0; i--) {
    if (ids.length === PAGERDUTY_RENDER_LIMITS.eventIds) break;
    const eventId = id(notification.events[i].id);
    bytes += utf8Length(JSON.stringify(eventId)) + 1; // with its comma
    if (bytes > PAGERDUTY_RENDER_LIMITS.eventIdsBytes) break;
    ids.push(eventId);
  }
  return ids;
}

function investigationDetails(
  notification: InvestigationNotification,
  context: RenderContext,
): Record<string, unknown> {
  return {
    investigation_id: id(notification.investigationId),
    status: bounded(notification.status, VIEW_LIMITS.status),
    outcome: bounded(notification.outcome, VIEW_LIMITS.outcome),
    headline: bounded(notification.headline, VIEW_LIMITS.headline),
    person_name: bounded(notification.personName, VIEW_LIMITS.personName),
    person_email: bounded(notification.personEmail, VIEW_LIMITS.email),
    detection_id: id(notification.detectionId),
    detection_name: bounded(notification.detectionName, VIEW_LIMITS.detectionName),
    risk_score: notification.riskScore,
    notification_id: id(notification.notificationId),
    delivery_id: id(context.delivery.id),
  };
}
