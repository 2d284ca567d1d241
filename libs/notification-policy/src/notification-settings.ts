/** How email is delivered (SPEC §6.1). Webhooks are immediate in every mode. */
export type NotificationFrequency = 'batch' | 'immediate' | 'threshold';

export const NOTIFICATION_FREQUENCIES: readonly NotificationFrequency[] = [
  'batch',
  'immediate',
  'threshold',
];

/**
 * Silencing: none, a permanent disable (until re-enabled by hand) or a snooze that ends at
 * `until` (epoch ms). An expired snooze is kept as data but no longer silences (see isSilenced).
 */
export type NotificationSilence =
  { kind: 'none' } | { kind: 'disabled' } | { kind: 'snoozed'; until: number };

/** One notification configuration: the global defaults or a detection's custom override. */
export interface NotificationSettings {
  emailEnabled: boolean;
  recipients: string[];
  frequency: NotificationFrequency;
  batchWindowMinutes: number;
  webhookEnabled: boolean;
  /** Ids of enrolled webhook integrations; enrollment is checked by the caller (it needs I/O). */
  webhookProviderIds: string[];
  maxEventsPerNotification: number;
  /** Used by Threshold mode: a channel fires only when the count exceeds it. */
  threshold: number | null;
  silence: NotificationSilence;
}

export const DEFAULT_BATCH_WINDOW_MINUTES = 60;
export const MIN_BATCH_WINDOW_MINUTES = 1;
/** One day: a longer digest window would hide activity for too long to be useful. */
export const MAX_BATCH_WINDOW_MINUTES = 1440;

export const DEFAULT_MAX_EVENTS_PER_NOTIFICATION = 5000;
export const MIN_MAX_EVENTS_PER_NOTIFICATION = 1;
/** Upper bound of the setting; also the size of the per-detection event buffer by default. */
export const MAX_MAX_EVENTS_PER_NOTIFICATION = 10000;

export const MAX_RECIPIENTS = 100;
export const MAX_WEBHOOK_PROVIDERS = 50;

/** Defaults of SPEC §2.5; channels start off because nobody is configured to receive anything. */
export const DEFAULT_NOTIFICATION_SETTINGS: Readonly<NotificationSettings> = Object.freeze({
  emailEnabled: false,
  recipients: [],
  frequency: 'batch',
  batchWindowMinutes: DEFAULT_BATCH_WINDOW_MINUTES,
  webhookEnabled: false,
  webhookProviderIds: [],
  maxEventsPerNotification: DEFAULT_MAX_EVENTS_PER_NOTIFICATION,
  threshold: null,
  silence: { kind: 'none' },
} satisfies NotificationSettings);

/** A deep copy, so that a copied configuration never shares arrays with its source. */
export function copySettings(settings: NotificationSettings): NotificationSettings {
  return {
    ...settings,
    recipients: [...settings.recipients],
    webhookProviderIds: [...settings.webhookProviderIds],
    silence: { ...settings.silence },
  };
}
