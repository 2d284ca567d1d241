import type { DetectionNotificationConfig } from './detection-notification-config';
import type { NotificationSettings } from './notification-settings';

export type SettingsSource = 'global' | 'custom';

export interface EffectiveSettings {
  settings: NotificationSettings;
  source: SettingsSource;
}

/**
 * The settings in force for a detection. The global silence applies only to detections that
 * inherit; a custom configuration follows its own (DESIGN §4). A config that says custom but has
 * no custom settings (corrupt data) falls back to global rather than silently sending nothing.
 */
export function resolveEffectiveSettings(
  global: NotificationSettings,
  detectionConfig: DetectionNotificationConfig | null | undefined,
): EffectiveSettings {
  if (detectionConfig?.useCustom && detectionConfig.custom) {
    return { settings: detectionConfig.custom, source: 'custom' };
  }
  return { settings: global, source: 'global' };
}
