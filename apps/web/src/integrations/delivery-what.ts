import { type DeliveryView } from '@vigil/control-plane';
import { TEST_NOTIFICATION_PREFIX } from '@vigil/workspace';

/**
 * What a delivery carried, in a few words: a test event, a detection or investigation update, a
 * digest, a fallback for a delivery that died, a notice to the admins.
 */
export function deliveryWhat(delivery: DeliveryView): string {
  if (delivery.notificationId.startsWith(TEST_NOTIFICATION_PREFIX)) return 'Test event';
  switch (delivery.kind) {
    case 'detection':
      return 'Detection update';
    case 'investigation':
      return 'Investigation update';
    case 'digest':
      return 'Digest';
    case 'fallback':
      return 'Fallback for a failed delivery';
    case 'notice':
      return 'Notice to admins';
  }
}
