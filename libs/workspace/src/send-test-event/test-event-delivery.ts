import { buildDetectionWebhookPayload, type DetectionNotice } from '@vigil/contracts';
import { type NewDelivery, type WebhookProviderView } from '@vigil/control-plane';
import { renderStoredBody, type DestinationNotification } from '@vigil/destinations';
import { renderingConfigOf } from '../webhook-providers/rendering-config';

/** Test deliveries' notification ids start with this, so lists can tell them apart. */
export const TEST_NOTIFICATION_PREFIX = 'test-';
export const TEST_DETECTION_ID = 'vigil-test-event';

/**
 * A "Send a test event" delivery: a detection payload of SPEC.md §6.2 with one sample event,
 * so a receiver can check its parsing and its signature verification end to end. Stored like
 * any delivery; the notifier signs and sends it with the provider's current secret.
 */
export function testEventDelivery(
  provider: Pick<WebhookProviderView, 'id' | 'name' | 'destination' | 'pagerDuty'>,
  ids: { deliveryId: string; notificationId: string },
  appUrl: string,
  now: number,
): NewDelivery {
  const notificationId = `${TEST_NOTIFICATION_PREFIX}${ids.notificationId}`;
  const notice: DetectionNotice = {
    notificationId,
    detectionId: TEST_DETECTION_ID,
    detectionName: 'Vigil test event',
    previousCount: 0,
    currentCount: 1,
    since: now,
    eventCount: 1,
    userCount: 1,
    affectedUsers: [{ email: 'test.user@example.com', name: 'Test User' }],
    decidedAt: now,
    events: [
      {
        id: `${TEST_DETECTION_ID}-1`,
        personName: 'Test User',
        personEmail: 'test.user@example.com',
        description: 'A test event sent from Settings → Integrations.',
        timestamp: now,
      },
    ],
    truncatedCount: 0,
  };
  const delivery = { id: ids.deliveryId, recipientName: provider.name };
  const base = {
    id: ids.deliveryId,
    notificationId,
    kind: 'detection',
    channel: 'webhook',
    target: provider.id,
    subjectId: null,
  } as const;
  const config = renderingConfigOf(provider);
  if (config === null) {
    return { ...base, payload: buildDetectionWebhookPayload(notice, delivery, appUrl) };
  }
  const notification: DestinationNotification = {
    subject: 'detection',
    ...notice,
    maxRiskScore: null,
    sources: [],
  };
  return {
    ...base,
    payload: null,
    payloadJson: renderStoredBody(notification, { appUrl, delivery }, config),
  };
}
