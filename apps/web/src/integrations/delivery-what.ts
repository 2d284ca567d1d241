import { type DeliveryView } from '@vigil/control-plane';
import { TEST_NOTIFICATION_PREFIX } from '@vigil/workspace';

/** What a delivery carried, in a word: a test event, a detection or investigation update, a digest. */
export function deliveryWhat(delivery: DeliveryView): string {
  if (delivery.notificationId.startsWith(TEST_NOTIFICATION_PREFIX)) return 'Test event';
  switch (delivery.kind) {
    case 'detection':
      return 'Detection update';
    case 'investigation':
      return 'Investigation update';
    case 'digest':
      return 'Digest';
  }
}
