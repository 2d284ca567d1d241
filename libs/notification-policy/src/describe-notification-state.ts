import type { DetectionNotificationConfig } from './detection-notification-config';
import type { NotificationSettings } from './notification-settings';
import { resolveEffectiveSettings } from './resolve-effective-settings';

/** What a reader of a detection needs to know about its notifications, at `now`. */
export interface NotificationStateSummary {
  configuration: 'global' | 'custom';
  state: 'active' | 'disabled' | 'snoozed';
  snoozedUntil: number | null;
  frequency: NotificationSettings['frequency'];
  emailEnabled: boolean;
  webhookEnabled: boolean;
}

/**
 * Summarises the settings in force for a detection. A snooze whose end has passed reads as
 * active, exactly as the decision engine treats it.
 */
export function describeNotificationState(
  global: NotificationSettings,
  config: DetectionNotificationConfig | undefined,
  now: number,
): NotificationStateSummary {
  const { settings, source } = resolveEffectiveSettings(global, config);
  const silence = settings.silence;
  const snoozed = silence.kind === 'snoozed' && silence.until > now;
  return {
    configuration: source,
    state: silence.kind === 'disabled' ? 'disabled' : snoozed ? 'snoozed' : 'active',
    snoozedUntil: snoozed ? silence.until : null,
    frequency: settings.frequency,
    emailEnabled: settings.emailEnabled,
    webhookEnabled: settings.webhookEnabled,
  };
}
