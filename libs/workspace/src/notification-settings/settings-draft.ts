import {
  validateNotificationSettings,
  type NotificationSettings,
  type NotificationSilence,
  type SettingsFieldError,
} from '@vigil/notification-policy';

/**
 * Notification settings as a person submitted them (SPEC.md §2.5): every field is given, and a
 * number may still be text as typed, which the rules refuse with its field named. The silence
 * is not part of a draft: it is changed on its own and kept as stored.
 */
export interface SettingsDraft {
  readonly emailEnabled: boolean;
  readonly recipients: readonly string[];
  readonly frequency: string;
  /** null when no threshold was given. */
  readonly threshold: number | string | null;
  /** undefined when left blank. */
  readonly batchWindowMinutes: number | string | undefined;
  readonly webhookEnabled: boolean;
  readonly webhookProviderIds: readonly string[];
  /** undefined when left blank. */
  readonly maxEventsPerNotification: number | string | undefined;
}

export type CheckedSettingsDraft =
  | { readonly ok: true; readonly settings: NotificationSettings }
  | { readonly ok: false; readonly problems: readonly SettingsFieldError[] };

/**
 * The draft as settings, checked by the rules the store applies plus the two it cannot: a
 * blank number is missing (not defaulted), and selected providers must be enrolled.
 */
export function checkSettingsDraft(
  draft: SettingsDraft,
  silence: NotificationSilence,
  enrolledProviderIds: readonly string[],
): CheckedSettingsDraft {
  const problems: SettingsFieldError[] = [];
  if (draft.batchWindowMinutes === undefined)
    problems.push({ field: 'batchWindowMinutes', message: 'is required' });
  if (draft.maxEventsPerNotification === undefined)
    problems.push({ field: 'maxEventsPerNotification', message: 'is required' });
  const unenrolled = draft.webhookProviderIds.filter((id) => !enrolledProviderIds.includes(id));
  if (unenrolled.length > 0) {
    problems.push({ field: 'webhookProviderIds[]', message: 'is not an enrolled provider' });
  }
  const result = validateNotificationSettings({
    emailEnabled: draft.emailEnabled,
    recipients: [...draft.recipients],
    frequency: draft.frequency,
    threshold: draft.threshold,
    batchWindowMinutes: draft.batchWindowMinutes,
    webhookEnabled: draft.webhookEnabled,
    webhookProviderIds: [...draft.webhookProviderIds],
    maxEventsPerNotification: draft.maxEventsPerNotification,
    silence,
  });
  if (result.ok && problems.length === 0) return { ok: true, settings: result.value };
  return { ok: false, problems: [...problems, ...(result.ok ? [] : result.errors)] };
}
