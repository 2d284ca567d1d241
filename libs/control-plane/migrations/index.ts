import { migration0001ApiTokens } from './0001_api_tokens';
import { migration0002NotificationSettings } from './0002_notification_settings';
import { migration0003WebhookProvidersAndDeliveries } from './0003_webhook_providers_and_deliveries';
import { migration0004UsersAndSessions } from './0004_users_and_sessions';
import { migration0005DeliveryFilters } from './0005_delivery_filters';
import { migration0006RateLimits } from './0006_rate_limits';
import { migration0007WebhookSecretsAtRest } from './0007_webhook_secrets_at_rest';
import { migration0008UserLifecycle } from './0008_user_lifecycle';
import { migration0009AuditEvents } from './0009_audit_events';
import { migration0010DeadDeliveriesIndex } from './0010_dead_deliveries_index';
import { migration0011SignInRequests } from './0011_sign_in_requests';
import { migration0012SealedWebhookSecretsOnly } from './0012_sealed_webhook_secrets_only';
import { migration0013ProviderDestinations } from './0013_provider_destinations';
import { migration0014ProviderFilters } from './0014_provider_filters';
import { migration0015EndpointHealthAndFallback } from './0015_endpoint_health_and_fallback';
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
  migration0006RateLimits,
  migration0007WebhookSecretsAtRest,
  migration0008UserLifecycle,
  migration0009AuditEvents,
  migration0010DeadDeliveriesIndex,
  migration0011SignInRequests,
  migration0012SealedWebhookSecretsOnly,
  migration0013ProviderDestinations,
  migration0014ProviderFilters,
  migration0015EndpointHealthAndFallback,
];
