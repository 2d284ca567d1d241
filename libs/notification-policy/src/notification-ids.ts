import { idFromParts } from './name-based-uuid';
import type { NotificationChannel } from '@vigil/contracts';

/** Id of a detection notification: a channel notifies each count at most once. */
export function detectionNotificationId(
  detectionId: string,
  channel: NotificationChannel,
  currentCount: number,
): string {
  return idFromParts('detection', detectionId, channel, currentCount);
}

/** Key shared by every entry of one detection in one digest window. */
export function digestEntryKey(
  detectionId: string,
  windowStart: number,
  windowEnd: number,
): string {
  return idFromParts('digest-entry', detectionId, windowStart, windowEnd);
}

/** Id of the digest email one recipient gets for one window (for the notifier to use). */
export function digestNotificationId(
  recipient: string,
  windowStart: number,
  windowEnd: number,
): string {
  return idFromParts('digest', recipient.trim().toLowerCase(), windowStart, windowEnd);
}

/** Id of an investigation notification: one per content version and channel. */
export function investigationNotificationId(
  investigationId: string,
  fingerprint: string,
  channel: NotificationChannel,
): string {
  return idFromParts('investigation', investigationId, fingerprint, channel);
}
