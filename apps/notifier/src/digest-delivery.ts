import { renderDigestEmail } from '@vigil/contracts';
import type { DigestGroup, NewDelivery } from '@vigil/control-plane';
import { digestNotificationId, idFromParts } from '@vigil/notification-policy';
import { deliveryId, type EmailPayload } from './plan-deliveries';

/**
 * The digest email of one recipient and window, rendered once. The window's digest takes the
 * id the processor's contract names; a follow-up for late entries gets its own.
 */
export function digestDelivery(group: DigestGroup, appUrl: string): NewDelivery {
  const notificationId =
    group.sequence === 0
      ? digestNotificationId(group.recipient, group.windowStart, group.windowEnd)
      : idFromParts('digest', group.recipient, group.windowStart, group.windowEnd, group.sequence);
  const email = renderDigestEmail(
    {
      windowStart: group.windowStart,
      windowEnd: group.windowEnd,
      lines: group.entries.map((entry) => ({
        detectionId: entry.detectionId,
        detectionName: entry.detectionName,
        newCount: entry.newCount,
        totalCount: entry.currentCount,
        userCount: entry.userCount,
        affectedUsers: entry.affectedUsers,
      })),
    },
    appUrl,
  );
  return {
    id: deliveryId(notificationId, 'email', group.recipient),
    notificationId,
    kind: 'digest',
    channel: 'email',
    target: group.recipient,
    subjectId: null,
    payload: { to: group.recipient, ...email } satisfies EmailPayload,
  };
}
