// SQL port, adapter and migrations
export {
  silentLogger,
  type ControlPlaneLogger,
  type SqlClient,
  type SqlExecutor,
  type SqlQueryOptions,
  type SqlResult,
} from './sql/sql-client';
export {
  createPgSqlClient,
  isPgSqlClient,
  type PgSqlClient,
  type PgSqlClientOptions,
} from './sql/pg-sql-client';
export {
  isEmbeddedSqlClient,
  openPgliteSqlClient,
  type EmbeddedSqlClient,
  type PgliteSqlClientOptions,
} from './sql/pglite-sql-client';
export { openSqlClient, type OpenSqlClientOptions } from './sql/open-sql-client';
export { databaseReadiness } from './sql/database-readiness';
export { SqlUnavailableError, isUnavailableError } from './sql/sql-unavailable-error';
export {
  MigrationError,
  runMigrations,
  type MigrationReport,
  type RunMigrationsOptions,
} from './sql/run-migrations';
export { controlPlaneMigrations, type Migration } from '../migrations';

// Permissions (SPEC.md §5)
export {
  LEVEL_KEYS,
  PERMISSION_LEVELS,
  SCOPES,
  SCOPE_KEYS,
  atLeastOneScope,
  completePermissions,
  describePermissions,
  hasScope,
  isPermissionLevel,
  isScope,
  levelLabel,
  levelSatisfies,
  parsePermissions,
  permissionsFromStored,
  presetPermissions,
  scopeLabel,
  type PermissionLevel,
  type PermissionProblem,
  type Permissions,
  type Scope,
} from './permissions/permissions';

// API tokens
export {
  TOKEN_STATE_LABELS,
  tokenStateAt,
  type ApiPrincipal,
  type ApiTokenRecord,
  type ApiTokenState,
  type ApiTokenView,
  type AuthenticationFailureCode,
  type AuthenticationResult,
} from './api-tokens/api-token';
export {
  DEFAULT_TOKEN_LIFETIME_DAYS,
  MAX_TOKEN_LIFETIME_DAYS,
  TOKEN_NAME_MAX_LENGTH,
  validateCreateToken,
  type CreateTokenCommand,
  type ValidTokenRequest,
} from './api-tokens/create-token-command';
export { TokenError, type FieldProblem, type TokenErrorCode } from './api-tokens/token-error';
export {
  TOKEN_LENGTH,
  TOKEN_PREFIX,
  generateTokenValue,
  hashTokenValue,
  parseTokenValue,
  type ParsedTokenValue,
} from './api-tokens/token-value';
export {
  type ApiTokenStore,
  type NewApiToken,
  type StoredApiToken,
} from './api-tokens/api-token-store';
export { SqlApiTokenStore } from './api-tokens/sql-api-token-store';
export {
  ApiTokenService,
  type ApiTokenServiceOptions,
  type CreatedToken,
} from './api-tokens/api-token.service';
export { createApiTokenService } from './api-tokens/create-api-token-service';
// Users and roles of the web application
export {
  USER_ROLES,
  isUserRole,
  roleLabel,
  type UserRecord,
  type UserRole,
  type UserStatus,
  type UserView,
  type VerifiedIdentity,
} from './users/user';
export { UserError, type UserErrorCode } from './users/user-error';
export {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USER_NAME_MAX_LENGTH,
  normalizeEmail,
  validateCreateUser,
  type CreateUserCommand,
} from './users/create-user-command';
export { Argon2PasswordHasher, type PasswordHasher } from './users/password-hasher';
export {
  type NewUser,
  type StoredLinkToken,
  type StoredUser,
  type StoredUserIdentity,
  type UserStore,
} from './users/user-store';
export { SqlUserStore } from './users/sql-user-store';
export {
  INVITATION_LIFETIME_MS,
  PASSWORD_RESET_LIFETIME_MS,
  oneTimeLinkUrl,
  type OneTimeLink,
  type OneTimeLinkPurpose,
} from './users/one-time-link';
export {
  UserService,
  type IdentityProvisioning,
  type InvitedUser,
  type PasswordCheck,
  type OneTimeLinkDetails,
  type UserServiceOptions,
} from './users/user.service';
export { createUserService } from './users/create-user-service';
// Web sessions
export {
  SESSION_ABSOLUTE_TIMEOUT_MS,
  SESSION_IDLE_TIMEOUT_MS,
  type ActiveSession,
  type StartedSession,
} from './sessions/session';
export { type NewSession, type SessionStore, type StoredSession } from './sessions/session-store';
export { SqlSessionStore } from './sessions/sql-session-store';
export { SessionService, type SessionServiceOptions } from './sessions/session.service';
export { createSessionService } from './sessions/create-session-service';

// Single sign-on requests under way (OpenID Connect)
export { type SignInRequest, type SignInRequestStore } from './sign-in-requests/sign-in-request';
export { SqlSignInRequestStore } from './sign-in-requests/sql-sign-in-request-store';

// Audit log (append-only)
export {
  AUDIT_ACTIONS,
  AUDIT_ACTOR_TYPES,
  SYSTEM_ACTOR,
  isAuditAction,
  operatorActor,
  tokenActor,
  userActor,
  type AuditAction,
  type AuditActor,
  type AuditActorType,
  type AuditContext,
  type AuditEvent,
  type AuditTarget,
  type NewAuditEvent,
} from './audit/audit-event';
export {
  AUDIT_PAGE_DEFAULT,
  AUDIT_PAGE_MAX,
  type AuditFilter,
  type AuditLog,
  type AuditPage,
} from './audit/audit-log';
export { AuditError, type AuditErrorCode } from './audit/audit-error';
export { SqlAuditLog } from './audit/sql-audit-log';
export { AuditRetention, type AuditRetentionOptions } from './audit/audit-retention';

// Secrets at rest
export {
  SECRETS_KEY_BYTES,
  SecretBox,
  SecretOpenError,
  isSealed,
  keyIdOfSealed,
  type SecretOpenFailure,
} from './secrets/secret-box';
export { SecretsKeyError } from './secrets/secrets-key-error';
export {
  GENERATED_KEY_FILE,
  loadSecretBox,
  readKeyFile,
  secretsKeySettings,
  type LoadedSecretBox,
  type SecretsKeySettings,
} from './secrets/load-secret-box';
export { SEALED_COLUMNS, sealingContext, type SealedColumn } from './secrets/sealed-columns';
export {
  SEALED_ONLY_GRACE_MS,
  assertKeyOpensStoredSecrets,
  prepareStoredSecrets,
  requireSealedSecrets,
  resealStoredSecrets,
  sealPlaintextSecrets,
  type KeyRotationReport,
  type SealedOnlyOutcome,
} from './secrets/stored-secrets';

// Notification settings (SPEC.md §2.5, §3.2)
export {
  SETTINGS_CHANNEL,
  type NotificationSettingsStore,
  type SettingsChange,
  type StoredDetectionConfig,
} from './notification-settings/notification-settings-store';
export { InvalidNotificationSettingsError } from './notification-settings/invalid-notification-settings-error';
export { SqlNotificationSettingsStore } from './notification-settings/sql-notification-settings-store';
export {
  type SettingsChangeFeed,
  type SettingsChangeListener,
} from './notification-settings/settings-change-feed';
export {
  PgSettingsChangeFeed,
  type PgSettingsChangeFeedOptions,
} from './notification-settings/pg-settings-change-feed';
export { PgliteSettingsChangeFeed } from './notification-settings/pglite-settings-change-feed';
export {
  openSettingsChangeFeed,
  type OpenSettingsChangeFeedOptions,
} from './notification-settings/open-settings-change-feed';
export {
  SettingsCache,
  type SettingsCacheChange,
  type SettingsCacheOptions,
} from './notification-settings/settings-cache';

// Webhook providers (SPEC.md §2.5) and the SSRF guard of DESIGN.md §5
export {
  WEBHOOK_PROVIDER_KINDS,
  WEBHOOK_PROVIDER_NAME_MAX_LENGTH,
  WEBHOOK_URL_MAX_LENGTH,
  type EnrollWebhookProviderCommand,
  type PagerDutyDestinationView,
  type RotateWebhookSecretOptions,
  type WebhookProviderKind,
  type WebhookProviderTarget,
  type WebhookProviderView,
  type EnableProviderOptions,
  type EnabledProvider,
  type ProviderDisabled,
  type ProviderHealthCandidate,
  type WebhookProviderWithSecret,
} from './webhook-providers/webhook-provider';
export {
  WebhookProviderError,
  type WebhookProviderErrorCode,
} from './webhook-providers/webhook-provider-error';
export { WEBHOOK_SECRET_PREFIX, generateWebhookSecret } from './webhook-providers/webhook-secret';
export {
  PUBLIC_TARGETS_ONLY,
  WebhookTargetError,
  assertAddressAllowed,
  assertWebhookTarget,
  assertWebhookUrl,
  guardedLookup,
  hostOf,
  nonPublicRangeOf,
  type WebhookTargetPolicy,
} from './webhook-providers/webhook-target-guard';
export {
  DEFAULT_SECRET_OVERLAP_MS,
  WebhookProviderService,
  type WebhookProviderServiceOptions,
} from './webhook-providers/webhook-provider.service';

// Deliveries (DESIGN.md §5)
export {
  type AttemptResult,
  type ClaimedDelivery,
  type DeliveryAttempt,
  type DeliveryChannel,
  type DeliveryFilter,
  type LeaseDurations,
  type DeliveryKind,
  type DeliveryStatus,
  type DeliveryView,
  type DeliveryWithAttempts,
  type DeliveryWithLastAttempt,
  type DigestEntry,
  type DigestGroup,
  type NewDelivery,
  type SkipCause,
} from './deliveries/delivery';
export {
  DEFAULT_RETRY_SCHEDULE,
  nextRetryDelay,
  parseRetrySchedule,
} from './deliveries/retry-schedule';
export {
  DELIVERY_CLAIM_SESSION_SETTINGS,
  SqlDeliveryStore,
  type ClaimCapacity,
  type RecordedAttempt,
} from './deliveries/sql-delivery-store';
export { SqlDigestStore } from './deliveries/sql-digest-store';
export { SqlDeliveryLog } from './deliveries/sql-delivery-log';
export { DeliveryError, type DeliveryErrorCode } from './deliveries/delivery-error';
export { DeliveryService } from './deliveries/delivery.service';
export { SqlFallbackQueue, type DeadDelivery } from './deliveries/sql-fallback-queue';
export { insertDeliveries, type InsertedDeliveries } from './deliveries/insert-deliveries';

// Fallback destinations (issue #20)
export {
  GLOBAL_FALLBACK_SCOPE,
  MAX_FALLBACK_RECIPIENTS,
  type FallbackDestination,
  type FallbackDestinationInput,
  type FallbackDestinationView,
} from './fallback/fallback-destination';
export { FallbackError, type FallbackErrorCode } from './fallback/fallback-error';
export { FallbackDestinationService } from './fallback/fallback-destination.service';
