import { migration0001ApiTokens } from './0001_api_tokens';
import { migration0002NotificationSettings } from './0002_notification_settings';
import { migration0003WebhookProvidersAndDeliveries } from './0003_webhook_providers_and_deliveries';
import { migration0004UsersAndSessions } from './0004_users_and_sessions';
import { migration0005DeliveryFilters } from './0005_delivery_filters';
import { type Migration } from './migration';

export type { Migration } from './migration';

/**
 * Every migration, in the order they apply. Later parts of the control plane (users, sessions,
 * notification settings, webhook providers, deliveries) append theirs here.
 */
export const controlPlaneMigrations: readonly Migration[] = [
  migration0001ApiTokens,
  migration0002NotificationSettings,
  migration0003WebhookProvidersAndDeliveries,
  migration0004UsersAndSessions,
  migration0005DeliveryFilters,
];
