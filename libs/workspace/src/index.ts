// Errors and the ports the use cases need (control-plane and search implement them)
export {
  WorkspaceError,
  type WorkspaceErrorCode,
  type WorkspaceFieldProblem,
} from './workspace-error';
export { type ApiTokens } from './ports/api-tokens';
export { type AuditTrail } from './ports/audit-trail';
export { type DeliveryLog } from './ports/delivery-log';
export { type FallbackDestinations } from './ports/fallback-destinations';
export { type Mailer, type OutgoingEmail } from './ports/mailer';
export { type Users } from './ports/users';
export { type WebhookProviders } from './ports/webhook-providers';

// Access: API tokens and users
export { CreateApiToken, type CreateApiTokenCommand } from './create-api-token/create-api-token';
export { DeleteApiToken } from './delete-api-token/delete-api-token';
export { FindApiToken } from './find-api-token/find-api-token';
export { ListApiTokens } from './list-api-tokens/list-api-tokens';

// Members of the workspace: their lifecycle and one-time links (invitation, password reset)
export { CreateUser } from './create-user/create-user';
export { ListUsers, type MemberList } from './list-users/list-users';
export { FindUser } from './find-user/find-user';
export { InviteUser, type InvitedMember } from './invite-user/invite-user';
export { ChangeUserRole } from './change-user-role/change-user-role';
export { DisableUser } from './disable-user/disable-user';
export { EnableUser } from './enable-user/enable-user';
export { DeleteUser } from './delete-user/delete-user';
export { ResetUserPassword } from './reset-user-password/reset-user-password';
export { ShowOneTimeLink } from './show-one-time-link/show-one-time-link';
export {
  CompleteOneTimeLink,
  type CompleteOneTimeLinkCommand,
} from './complete-one-time-link/complete-one-time-link';
export {
  AccountLinks,
  type AccountLinksOptions,
  type HandedOverLink,
} from './user-links/account-links';
export { accountLinkEmail } from './user-links/account-link-email';

// The audit log
export { AUDIT_EVENTS_PER_PAGE, ListAuditEvents } from './list-audit-events/list-audit-events';

// Notification settings (SPEC.md §2.5, §3.2)
export {
  checkSettingsDraft,
  type CheckedSettingsDraft,
  type SettingsDraft,
} from './notification-settings/settings-draft';
export {
  isSilenceChoice,
  silenceOutcomeOf,
  type SilenceChoice,
  type SilenceOutcome,
} from './notification-settings/silence-choice';
export { ChangeGlobalSettings } from './change-global-settings/change-global-settings';
export { SilenceGlobalNotifications } from './silence-global-notifications/silence-global-notifications';
export {
  ShowNotificationSettings,
  type NotificationSettingsOverview,
} from './show-notification-settings/show-notification-settings';
export { ToggleCustomSettings } from './toggle-custom-settings/toggle-custom-settings';
export { type SettingsChangeKind } from './notification-settings/settings-audit';
export {
  ChangeDetectionSettings,
  type ChangeDetectionSettingsOutcome,
} from './change-detection-settings/change-detection-settings';
export { SilenceDetection } from './silence-detection/silence-detection';

// Detections and investigations
export {
  DETECTIONS_PER_PAGE,
  ListDetections,
  type DetectionListPage,
} from './list-detections/list-detections';
export {
  DETECTION_DELIVERIES_SHOWN,
  ShowDetection,
  type DetectionDeliveryRow,
  type DetectionOverview,
  type ShowDetectionQuery,
} from './show-detection/show-detection';
export { ShowInvestigation } from './show-investigation/show-investigation';
export {
  PLACEHOLDER_DELIVERY_ID,
  PreviewDetectionNotifications,
  type DetectionNotificationPreview,
  type PreviewChannel,
  type PreviewDetectionNotificationsOptions,
  type PreviewPayload,
  type PreviewTarget,
} from './preview-detection-notifications/preview-detection-notifications';

// Webhook providers and deliveries
export { EnrollWebhookProvider } from './enroll-webhook-provider/enroll-webhook-provider';
export { FindWebhookProvider } from './find-webhook-provider/find-webhook-provider';
export {
  RotateWebhookSecret,
  type RotateWebhookSecretCommand,
} from './rotate-webhook-secret/rotate-webhook-secret';
export {
  ChangeProviderFilter,
  type ChangeProviderFilterCommand,
} from './change-provider-filter/change-provider-filter';
export { DeleteWebhookProvider } from './delete-webhook-provider/delete-webhook-provider';
export {
  DisableWebhookProvider,
  type DisableWebhookProviderCommand,
} from './disable-webhook-provider/disable-webhook-provider';
export {
  EnableWebhookProvider,
  type EnableWebhookProviderCommand,
} from './enable-webhook-provider/enable-webhook-provider';
export { ListDisabledProviders } from './list-disabled-providers/list-disabled-providers';
export {
  ShowFallbackDestinations,
  type FallbackDestinationsOverview,
} from './show-fallback-destinations/show-fallback-destinations';
export {
  ChangeFallbackDestination,
  type ChangeFallbackDestinationCommand,
} from './change-fallback-destination/change-fallback-destination';
export {
  ListWebhookProviders,
  type WebhookProviderList,
} from './list-webhook-providers/list-webhook-providers';
export {
  PROVIDER_DELIVERIES_SHOWN,
  ShowWebhookProvider,
  type WebhookProviderOverview,
} from './show-webhook-provider/show-webhook-provider';
export {
  ResendDelivery,
  type DeliveryOwner,
  type ResendDeliveryOutcome,
} from './resend-delivery/resend-delivery';
export { SendTestEvent, type SendTestEventOptions } from './send-test-event/send-test-event';
export {
  TEST_DETECTION_ID,
  TEST_NOTIFICATION_PREFIX,
  testEventDelivery,
} from './send-test-event/test-event-delivery';

// Signing in and out (password, single sign-on) and its audit
export {
  NO_SIGN_IN_OBSERVER,
  type IdentityProvider,
  type SignInFailed,
  type SignInLogger,
  type SignInMethod,
  type SignInObserver,
  type SignInSucceeded,
  type SignInThrottled,
  type SignInThrottling,
  type SignInUsers,
} from './ports/sign-in';
export { SignInError, type SignInErrorCode } from './sign-in/sign-in-error';
export {
  SignInOutcomes,
  type AttemptContext,
  type FailedAttempt,
  type ThrottledAttempt,
} from './sign-in/sign-in-outcomes';
export {
  SignInWithPassword,
  type SignInWithPasswordCommand,
} from './sign-in-with-password/sign-in-with-password';
export {
  SIGN_IN_REQUEST_LIFETIME_MS,
  StartSingleSignOn,
  type StartedSingleSignOn,
} from './start-single-sign-on/start-single-sign-on';
export {
  FinishSingleSignOn,
  type FinishSingleSignOnCommand,
  type FinishedSingleSignOn,
  type SingleSignOnProvisioning,
} from './finish-single-sign-on/finish-single-sign-on';
export { SignOut, type SessionEnding } from './sign-out/sign-out';
export {
  RecordOidcConfiguration,
  type OidcConfigurationSummary,
} from './record-oidc-configuration/record-oidc-configuration';
