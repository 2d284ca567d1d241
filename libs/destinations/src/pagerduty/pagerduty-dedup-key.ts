import { sha1Hex } from '@vigil/notification-policy';
import type { DestinationNotification } from '../destination-notification';
import { toWellFormed } from '../text/sanitize-text';
import { PAGERDUTY_LIMITS } from './pagerduty-limits';

/**
 * The alert a notification belongs to: one per detection (`vigil-detection-<id>`) or
 * investigation (`vigil-investigation-<id>`), so every later notification about it is a new
 * trigger on the same open alert rather than a new incident. An id too long for PagerDuty's 255
 * characters, or one that is not well-formed text, is replaced by a SHA-1 of its JSON form,
 * which is as stable and tells every id apart.
 */
export function pagerDutyDedupKey(notification: DestinationNotification): string {
  const [prefix, id] =
    notification.subject === 'detection'
      ? ['vigil-detection-', notification.detectionId]
      : ['vigil-investigation-', notification.investigationId];
  const key = prefix + id;
  return key.length <= PAGERDUTY_LIMITS.dedupKey && toWellFormed(id) === id
    ? key
    : `${prefix}sha1-${sha1Hex(JSON.stringify(id))}`;
}
