import {
  FIRST_NOTIFICATION_LINE,
  detectionBodyLines,
  detectionTitle,
  detectionUrl,
  formatUtc,
  investigationBodyLines,
  investigationTitle,
  investigationUrl,
} from '@vigil/contracts';
import type {
  DestinationNotification,
  DetectionNotification,
  InvestigationNotification,
} from './destination-notification';
import { sanitizeText, toWellFormed } from './text/sanitize-text';
import { truncateText } from './text/truncate-text';

/**
 * How long each user-controlled value may be in a chat or paging message (UTF-16 code units),
 * before any target's escaping: enough for any real name, short enough that one value cannot
 * crowd out the rest of a message.
 */
export const VIEW_LIMITS = {
  detectionName: 200,
  headline: 200,
  personName: 100,
  email: 320,
  description: 300,
  status: 60,
  outcome: 60,
  source: 60,
  /** Events any renderer lists at most. */
  events: 25,
} as const;

/** The fifth body line of a channel's first notification (@vigil/contracts words it). */
export { FIRST_NOTIFICATION_LINE };

export interface EventView {
  id: string;
  personName: string;
  description: string;
  /** `2024-05-01 10:00:05 UTC`, or `time unknown` for a timestamp no date can hold. */
  happened: string;
}

/**
 * A notification's text for chat and paging targets: every user-controlled value sanitized and
 * bounded, the wording shared with the SPEC payload and the emails (titles and body lines come
 * from @vigil/contracts). Targets escape it for their own markup.
 */
export interface NotificationView {
  title: string;
  lines: string[];
  /** Link to the detection or investigation in the web application. */
  url: string;
  actionLabel: string;
  /** The newest attached events first, at most VIEW_LIMITS.events. */
  events: EventView[];
  /** New events the list leaves out (counts stay exact: eventCount - events listed). */
  unlistedCount: number;
  /** Short facts that are not in the body lines, as label and value. */
  facts: [label: string, value: string][];
}

export function bounded(text: string, max: number): string {
  return truncateText(sanitizeText(text), max);
}

export function viewOf(notification: DestinationNotification, appUrl: string): NotificationView {
  return notification.subject === 'detection'
    ? detectionView(notification, appUrl)
    : investigationView(notification, appUrl);
}

function detectionView(notification: DetectionNotification, appUrl: string): NotificationView {
  const named = {
    ...notification,
    detectionName: bounded(notification.detectionName, VIEW_LIMITS.detectionName),
  };
  const events = notification.events
    .slice(-VIEW_LIMITS.events)
    .reverse()
    .map((event): EventView => ({
      id: sanitizeText(event.id),
      personName: bounded(event.personName, VIEW_LIMITS.personName),
      description: bounded(event.description, VIEW_LIMITS.description),
      happened: happenedText(event.timestamp),
    }));
  const sources = notification.sources.map((source) => bounded(source, VIEW_LIMITS.source));
  return {
    title: detectionTitle(named),
    lines: detectionBodyLines(named),
    url: detectionUrl(appUrl, toWellFormed(notification.detectionId)),
    actionLabel: 'Open detection',
    events,
    unlistedCount: Math.max(0, notification.eventCount - events.length),
    facts: sources.length > 0 ? [['Sources', sources.join(', ')]] : [],
  };
}

function investigationView(
  notification: InvestigationNotification,
  appUrl: string,
): NotificationView {
  const named: InvestigationNotification = {
    ...notification,
    headline: bounded(notification.headline, VIEW_LIMITS.headline),
    personName: bounded(notification.personName, VIEW_LIMITS.personName),
    status: bounded(notification.status, VIEW_LIMITS.status),
    outcome: bounded(notification.outcome, VIEW_LIMITS.outcome),
  };
  return {
    title: investigationTitle(named),
    lines: investigationBodyLines(named),
    url: investigationUrl(appUrl, toWellFormed(notification.investigationId)),
    actionLabel: 'Open investigation',
    events: [],
    unlistedCount: 0,
    facts: [
      ['Person', bounded(notification.personEmail, VIEW_LIMITS.email)],
      ['Detection', bounded(notification.detectionName, VIEW_LIMITS.detectionName)],
    ],
  };
}

/** The latest ~275,000 years either side of 1970 fit a Date; beyond, toISOString throws. */
const MAX_DATE_MS = 8.64e15;

export function isDateMs(ms: number): boolean {
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS;
}

function happenedText(ms: number): string {
  return isDateMs(ms) ? formatUtc(ms) : 'time unknown';
}
