// Settings model, validation and resolution
export {
  DEFAULT_BATCH_WINDOW_MINUTES,
  DEFAULT_MAX_EVENTS_PER_NOTIFICATION,
  DEFAULT_NOTIFICATION_SETTINGS,
  MAX_BATCH_WINDOW_MINUTES,
  MAX_MAX_EVENTS_PER_NOTIFICATION,
  MAX_RECIPIENTS,
  MAX_WEBHOOK_PROVIDERS,
  MIN_BATCH_WINDOW_MINUTES,
  MIN_MAX_EVENTS_PER_NOTIFICATION,
  NOTIFICATION_FREQUENCIES,
  copySettings,
  type NotificationFrequency,
  type NotificationSettings,
  type NotificationSilence,
} from './notification-settings';
export {
  validateNotificationSettings,
  type SettingsFieldError,
  type SettingsValidationResult,
} from './validate-notification-settings';
export { isEmailAddress } from './is-email-address';
export {
  DEFAULT_DETECTION_NOTIFICATION_CONFIG,
  type DetectionNotificationConfig,
} from './detection-notification-config';
export {
  resolveEffectiveSettings,
  type EffectiveSettings,
  type SettingsSource,
} from './resolve-effective-settings';
export { isSilenced } from './is-silenced';
export { SNOOZE_DURATIONS, isSnoozeDuration, type SnoozeDuration } from './snooze-durations';

// Transitions of SPEC §3.2
export { setUseCustom } from './set-use-custom';
export { disableDetection, snoozeDetection, unsilenceDetection } from './silence-detection';
export { disableGlobal, snoozeGlobal, unsilenceGlobal } from './silence-global';

// Per-detection state and decisions
export {
  DEFAULT_DETECTION_STATE_OPTIONS,
  MAX_SOURCES_KEPT,
  emptyChannelState,
  type BufferedEvent,
  type ChannelState,
  type DetectionEvent,
  type DetectionSnapshot,
  type DetectionState,
  type DetectionStateOptions,
  type DigestWindowState,
} from './detection-state';
export {
  restoreDetectionState,
  type StoredChannelState,
  type StoredDetectionState,
} from './restore-detection-state';
export { applyEvents, type ApplyEventsResult, type SeenEventIds } from './apply-events';
export { decide, type DecideResult } from './decide';
export {
  judgeChannels,
  type ChannelSkip,
  type ChannelVerdict,
  type ChannelVerdicts,
} from './judge-channels';
export {
  describeDryRunReason,
  describeDryRunWhen,
  dryRunDetection,
  type DetectionDryRun,
  type DigestDryRun,
  type DryRunProvider,
  type DryRunReason,
  type DryRunTarget,
  type DryRunWhen,
  type EmailDryRun,
  type WebhookDryRun,
} from './dry-run-detection';
export { nextWakeUp } from './next-wake-up';
export { digestWindow } from './digest-window';

// Investigations
export { decideInvestigation, type InvestigationDecisionResult } from './decide-investigation';
export { investigationFingerprint } from './investigation-fingerprint';
export type { InvestigationSnapshot } from './investigation-snapshot';

// Deterministic ids
export {
  detectionNotificationId,
  digestEntryKey,
  digestNotificationId,
  investigationNotificationId,
} from './notification-ids';
export { VIGIL_ID_NAMESPACE, idFromParts, nameBasedUuid } from './name-based-uuid';
export { sha1Hex } from './sha1';
export { canonicalJson } from './canonical-json';
export {
  describeNotificationState,
  type NotificationStateSummary,
} from './describe-notification-state';
export {
  FILTER_SUBJECTS,
  NO_PROVIDER_FILTER,
  describeFilterSkip,
  filterDelivery,
  type ProviderFilter,
  type FilterSkip,
  type FilterSubjects,
  type FilteredNotification,
} from './provider-filter';

// Endpoint health (issue #20)
export {
  DEFAULT_ENDPOINT_HEALTH_RULES,
  HEALTHY,
  applyHealthChange,
  describeHealthVerdict,
  healthChangeOf,
  healthVerdict,
  type EndpointHealth,
  type EndpointHealthRules,
  type HealthChange,
  type HealthOutcome,
  type HealthVerdict,
} from './endpoint-health';
