import type { NotificationSettings } from './notification-settings';

/**
 * A detection's choice between the global settings and its own (SPEC §3.2).
 * Invariant kept by the transitions: `custom` is non-null exactly when `useCustom` is on.
 */
export interface DetectionNotificationConfig {
  useCustom: boolean;
  custom: NotificationSettings | null;
}

export const DEFAULT_DETECTION_NOTIFICATION_CONFIG: Readonly<DetectionNotificationConfig> =
  Object.freeze({ useCustom: false, custom: null });
