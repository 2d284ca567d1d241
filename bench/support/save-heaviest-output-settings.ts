import { SqlNotificationSettingsStore, type SqlClient } from '@vigil/control-plane';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  type NotificationSettings,
} from '@vigil/notification-policy';

/** Every detection notifies both channels at each recalculation: the processor's heaviest output. */
export const HEAVIEST_OUTPUT_SETTINGS: Readonly<NotificationSettings> = {
  ...DEFAULT_NOTIFICATION_SETTINGS,
  frequency: 'immediate',
  webhookEnabled: true,
  webhookProviderIds: ['bench'],
  emailEnabled: true,
  recipients: ['soc@example.com'],
};

/** Saves HEAVIEST_OUTPUT_SETTINGS as the workspace's global settings. */
export function saveHeaviestOutputSettings(sql: SqlClient): Promise<unknown> {
  return new SqlNotificationSettingsStore(sql).saveGlobal(HEAVIEST_OUTPUT_SETTINGS);
}
