import type { AttachedEvents, DetectionUpdate } from './notification-decision';
import { detectionUrl, formatElapsed } from './notification-text';

/** The delivery a payload is rendered for: its id doubles as the `webhook-id` header. */
export interface PayloadDelivery {
  id: string;
  /** The provider's name (webhook) or the recipient's address (email). */
  recipientName: string;
}

export interface NotificationSection {
  id: string;
  title: string;
  body: string;
  action_url: string;
}

export interface DeliverySection {
  id: string;
  recipient_name: string;
  channel: 'webhook';
}

/** SPEC §6.2, field for field. */
export interface DetectionWebhookPayload {
  notification: NotificationSection;
  delivery: DeliverySection;
  metadata: {
    detection_id: string;
    previous_count: number;
    current_count: number;
    since: number;
    event_count: number;
    user_count: number;
    affected_users: string[];
    events: { id: string; person_name: string; description: string; timestamp: number }[];
    /** New events left out by Max events per notification (event_count - events.length). */
    truncated_count: number;
  };
}

/**
 * What the SPEC payload, its body lines and the detection email say: a detection decision's
 * fields but the risk score and sources, which SPEC §6.2 does not carry.
 */
export type DetectionNotice = Omit<DetectionUpdate, 'maxRiskScore' | 'sources'> & AttachedEvents;

/** `{detection}: {N} new events`, exactly (SPEC §6.2, DESIGN §4). */
export function detectionTitle(notice: Pick<DetectionUpdate, 'detectionName' | 'eventCount'>) {
  return `${notice.detectionName}: ${notice.eventCount} new events`;
}

/**
 * The fifth body line of a channel's first notification: there is no last notification to
 * count from (metadata.since is then the detection's first event, as SPEC §6.2 and DESIGN §4
 * say, and "Time since last notification: 573 days 6 hours" would read as a fact).
 */
export const FIRST_NOTIFICATION_LINE = 'First notification for this detection.';

/** The five body lines of DESIGN §4, shared by the webhook body and the email text. */
export function detectionBodyLines(notice: DetectionNotice): string[] {
  return [
    `Detection "${notice.detectionName}" has new events.`,
    `New events since last notification: ${notice.eventCount}`,
    `Events attached: ${notice.events.length}`,
    `Affected users: ${notice.userCount}`,
    notice.previousCount === 0
      ? FIRST_NOTIFICATION_LINE
      : `Time since last notification: ${formatElapsed(notice.decidedAt - notice.since)}`,
  ];
}

/** Renders the detection webhook body of SPEC §6.2 for one delivery. Pure. */
export function buildDetectionWebhookPayload(
  notice: DetectionNotice,
  delivery: PayloadDelivery,
  appUrl: string,
): DetectionWebhookPayload {
  return {
    notification: {
      id: notice.notificationId,
      title: detectionTitle(notice),
      body: detectionBodyLines(notice).join('\n'),
      action_url: detectionUrl(appUrl, notice.detectionId),
    },
    delivery: { id: delivery.id, recipient_name: delivery.recipientName, channel: 'webhook' },
    metadata: {
      detection_id: notice.detectionId,
      previous_count: notice.previousCount,
      current_count: notice.currentCount,
      since: notice.since,
      event_count: notice.eventCount,
      user_count: notice.userCount,
      affected_users: notice.affectedUsers.map((user) => user.email),
      events: notice.events.map((event) => ({
        id: event.id,
        person_name: event.personName,
        description: event.description,
        timestamp: event.timestamp,
      })),
      truncated_count: notice.truncatedCount,
    },
  };
}
