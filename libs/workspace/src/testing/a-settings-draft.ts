import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import { type SettingsDraft } from '../notification-settings/settings-draft';

/** A draft of the default settings, with `overrides`. */
export function aSettingsDraft(overrides: Partial<SettingsDraft> = {}): SettingsDraft {
  const d = DEFAULT_NOTIFICATION_SETTINGS;
  return {
    emailEnabled: d.emailEnabled,
    recipients: [],
    frequency: d.frequency,
    threshold: null,
    batchWindowMinutes: d.batchWindowMinutes,
    webhookEnabled: d.webhookEnabled,
    webhookProviderIds: [],
    maxEventsPerNotification: d.maxEventsPerNotification,
    ...overrides,
  };
}
