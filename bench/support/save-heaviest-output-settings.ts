import { SqlNotificationSettingsStore, type SqlClient } from '@vigil/control-plane';
import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';

/** Every detection notifies both channels at each recalculation: the processor's heaviest output. */
export function saveHeaviestOutputSettings(sql: SqlClient): Promise<unknown> {
  return new SqlNotificationSettingsStore(sql).saveGlobal({
    ...DEFAULT_NOTIFICATION_SETTINGS,
    frequency: 'immediate',
    webhookEnabled: true,
    webhookProviderIds: ['bench'],
    emailEnabled: true,
    recipients: ['soc@example.com'],
  });
}
