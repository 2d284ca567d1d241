import type { DetectionNotificationConfig } from './detection-notification-config';
import {
  copySettings,
  type NotificationSettings,
  type NotificationSilence,
} from './notification-settings';
import { SNOOZE_DURATIONS, type SnoozeDuration } from './snooze-durations';

/**
 * Snoozes one detection until now + duration. An inheriting detection becomes custom with a copy
 * of the current global settings plus the snooze (SPEC §3.2), so that silencing one detection
 * never silences the others; after the snooze it stays custom.
 */
export function snoozeDetection(
  config: DetectionNotificationConfig,
  global: NotificationSettings,
  duration: SnoozeDuration,
  now: number,
): DetectionNotificationConfig {
  return withDetectionSilence(config, global, {
    kind: 'snoozed',
    until: now + SNOOZE_DURATIONS[duration],
  });
}

/** Permanently disables one detection's notifications; an inheriting detection becomes custom, as for a snooze. */
export function disableDetection(
  config: DetectionNotificationConfig,
  global: NotificationSettings,
): DetectionNotificationConfig {
  return withDetectionSilence(config, global, { kind: 'disabled' });
}

/**
 * Ends a detection's disable or snooze. The detection stays custom (returning to inherit is the
 * toggle's job). An inheriting detection has no silence of its own, so it is returned unchanged:
 * a global silence is lifted with unsilenceGlobal.
 */
export function unsilenceDetection(
  config: DetectionNotificationConfig,
): DetectionNotificationConfig {
  if (!config.useCustom || !config.custom) return config;
  return { useCustom: true, custom: { ...copySettings(config.custom), silence: { kind: 'none' } } };
}

function withDetectionSilence(
  config: DetectionNotificationConfig,
  global: NotificationSettings,
  silence: NotificationSilence,
): DetectionNotificationConfig {
  const base = config.useCustom && config.custom ? config.custom : global;
  return { useCustom: true, custom: { ...copySettings(base), silence } };
}
