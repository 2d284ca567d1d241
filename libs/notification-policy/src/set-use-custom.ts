import type { DetectionNotificationConfig } from './detection-notification-config';
import { copySettings, type NotificationSettings } from './notification-settings';

/**
 * The "Use custom notification configuration" toggle (SPEC §3.2).
 *
 * On: an inheriting detection gets an exact copy of the current global settings (silence
 * included), so flipping the toggle changes nothing until the user edits the copy.
 * Off: the custom settings are discarded (custom = null) and later global changes apply. We do
 * not keep the old custom copy for a later toggle: turning custom on again (or snoozing) always
 * starts from the current global settings, as SPEC §3.2 describes for the snooze, and a stale
 * copy could silently bring back an old disable or recipients list.
 */
export function setUseCustom(
  config: DetectionNotificationConfig,
  on: boolean,
  global: NotificationSettings,
): DetectionNotificationConfig {
  if (!on) return { useCustom: false, custom: null };
  if (config.useCustom && config.custom)
    return { useCustom: true, custom: copySettings(config.custom) };
  return { useCustom: true, custom: copySettings(global) };
}
