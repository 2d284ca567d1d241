import { copySettings, type NotificationSettings } from './notification-settings';
import { SNOOZE_DURATIONS, type SnoozeDuration } from './snooze-durations';

/** Snoozes the global configuration: every inheriting detection is silent until now + duration. */
export function snoozeGlobal(
  global: NotificationSettings,
  duration: SnoozeDuration,
  now: number,
): NotificationSettings {
  return {
    ...copySettings(global),
    silence: { kind: 'snoozed', until: now + SNOOZE_DURATIONS[duration] },
  };
}

/** Disables the global configuration until it is re-enabled by hand (custom detections are unaffected). */
export function disableGlobal(global: NotificationSettings): NotificationSettings {
  return { ...copySettings(global), silence: { kind: 'disabled' } };
}

/** Lifts a global disable or snooze. */
export function unsilenceGlobal(global: NotificationSettings): NotificationSettings {
  return { ...copySettings(global), silence: { kind: 'none' } };
}
