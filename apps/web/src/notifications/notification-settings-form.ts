import {
  MAX_BATCH_WINDOW_MINUTES,
  MAX_MAX_EVENTS_PER_NOTIFICATION,
  MAX_RECIPIENTS,
  MIN_BATCH_WINDOW_MINUTES,
  MIN_MAX_EVENTS_PER_NOTIFICATION,
  type NotificationSettings,
  type NotificationSilence,
  type SettingsFieldError,
} from '@vigil/notification-policy';
import { checkSettingsDraft, type SettingsDraft } from '@vigil/workspace';

export const FREQUENCY_CHOICES = [
  {
    key: 'batch',
    label: 'Batch',
    description: 'Recipients get one digest email per batch window covering every detection.',
  },
  {
    key: 'immediate',
    label: 'Immediate',
    description: 'One email per detection each time its event count rises.',
  },
  {
    key: 'threshold',
    label: 'Threshold',
    description: 'Only once a detection’s event count exceeds the number below.',
  },
] as const;

/** The settings form as typed: re-rendered unchanged when the server refuses it. */
export interface NotificationSettingsFormValues {
  readonly emailEnabled: boolean;
  readonly recipients: string;
  readonly frequency: string;
  readonly threshold: string;
  readonly batchWindowMinutes: string;
  readonly webhookEnabled: boolean;
  readonly providerIds: readonly string[];
  readonly maxEvents: string;
}

/** Messages to show, by the form control they belong to. */
export interface NotificationSettingsFormErrors {
  recipients?: string;
  frequency?: string;
  threshold?: string;
  batchWindowMinutes?: string;
  providers?: string;
  maxEvents?: string;
  other: string[];
}

export type ParsedSettingsForm =
  | { ok: true; settings: NotificationSettings }
  | { ok: false; errors: NotificationSettingsFormErrors };

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

/** The stored settings as the form shows them. */
export function formValuesOf(settings: NotificationSettings): NotificationSettingsFormValues {
  return {
    emailEnabled: settings.emailEnabled,
    recipients: settings.recipients.join('\n'),
    frequency: settings.frequency,
    threshold: settings.threshold === null ? '' : String(settings.threshold),
    batchWindowMinutes: String(settings.batchWindowMinutes),
    webhookEnabled: settings.webhookEnabled,
    providerIds: [...settings.webhookProviderIds],
    maxEvents: String(settings.maxEventsPerNotification),
  };
}

/** Reads the urlencoded body of the settings form. */
export function readNotificationSettingsForm(
  body: Record<string, unknown>,
): NotificationSettingsFormValues {
  return {
    emailEnabled: body.email_enabled === 'on',
    recipients: text(body.recipients),
    frequency: text(body.frequency),
    threshold: text(body.threshold),
    batchWindowMinutes: text(body.batch_window_minutes),
    webhookEnabled: body.webhook_enabled === 'on',
    providerIds: list(body.provider),
    maxEvents: text(body.max_events),
  };
}

/** One address per line or separated by commas (or semicolons, as mail clients paste them). */
export function splitRecipients(value: string): string[] {
  return value
    .split(/[\n,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A whole number as typed (`5000`, `5,000`, `5 000`); anything else is passed on as text. */
function integerOrText(value: string): number | string | undefined {
  const compact = value.trim().replace(/[,\s]/g, '');
  if (compact === '') return undefined;
  return /^\d{1,15}$/.test(compact) ? Number(compact) : value;
}

const number = (n: number) => n.toLocaleString('en-US');

/** The form as a draft for the use cases: recipients split, numbers read as people type them. */
export function settingsDraftOf(values: NotificationSettingsFormValues): SettingsDraft {
  return {
    emailEnabled: values.emailEnabled,
    recipients: splitRecipients(values.recipients),
    frequency: values.frequency,
    threshold: integerOrText(values.threshold) ?? null,
    batchWindowMinutes: integerOrText(values.batchWindowMinutes),
    webhookEnabled: values.webhookEnabled,
    webhookProviderIds: [...values.providerIds],
    maxEventsPerNotification: integerOrText(values.maxEvents),
  };
}

/**
 * The whole check of the form in one call, by the rules the use cases apply (checkSettingsDraft):
 * settings, or the problems placed next to their controls. The silence is kept as stored.
 */
export function parseNotificationSettingsForm(
  values: NotificationSettingsFormValues,
  silence: NotificationSilence,
  enrolledProviderIds: readonly string[],
): ParsedSettingsForm {
  const checked = checkSettingsDraft(settingsDraftOf(values), silence, enrolledProviderIds);
  if (checked.ok) return { ok: true, settings: checked.settings };
  return { ok: false, errors: refusedFormErrors(values, checked.problems) };
}

/** The problems of refused settings next to the controls of the form that sent them. */
export function refusedFormErrors(
  values: NotificationSettingsFormValues,
  problems: readonly SettingsFieldError[],
): NotificationSettingsFormErrors {
  return settingsFormErrors(problems, splitRecipients(values.recipients));
}

/**
 * Turns the settings rules' problems into sentences placed next to the controls they concern;
 * `recipients` is the list as split from the form, so a bad address can be named.
 */
export function settingsFormErrors(
  problems: readonly SettingsFieldError[],
  recipients: readonly string[],
): NotificationSettingsFormErrors {
  const errors: NotificationSettingsFormErrors = { other: [] };
  const badAddresses: string[] = [];
  for (const { field, message } of problems) {
    const item = /^recipients\[(\d+)\]$/.exec(field);
    if (item) {
      badAddresses.push(recipients[Number(item[1])] ?? '');
    } else if (field === 'recipients') {
      errors.recipients = message.startsWith('at most')
        ? `Enter at most ${MAX_RECIPIENTS} recipients.`
        : 'Add at least one recipient, or turn email off.';
    } else if (field === 'frequency') {
      errors.frequency = 'Choose Batch, Immediate or Threshold.';
    } else if (field === 'threshold') {
      errors.threshold = message.startsWith('is required')
        ? 'Enter the event count to exceed: Threshold mode needs it.'
        : 'The threshold must be a whole number of 0 or more.';
    } else if (field === 'batchWindowMinutes') {
      errors.batchWindowMinutes = `Batch window must be a whole number of minutes from ${MIN_BATCH_WINDOW_MINUTES} to ${number(MAX_BATCH_WINDOW_MINUTES)}.`;
    } else if (field === 'maxEventsPerNotification') {
      errors.maxEvents = `Max events per notification must be a whole number from ${MIN_MAX_EVENTS_PER_NOTIFICATION} to ${number(MAX_MAX_EVENTS_PER_NOTIFICATION)}.`;
    } else if (field.startsWith('webhookProviderIds[')) {
      errors.providers =
        'A selected provider is no longer enrolled. Reload the page and choose again.';
    } else if (field === 'webhookProviderIds') {
      errors.providers = message.startsWith('at most')
        ? 'Select fewer providers.'
        : 'Select at least one provider, or turn webhooks off.';
    } else {
      errors.other.push(`${field || 'Settings'} ${message}.`);
    }
  }
  if (badAddresses.length === 1) {
    errors.recipients = `“${badAddresses[0]}” is not a valid email address.`;
  } else if (badAddresses.length > 1) {
    errors.recipients = `These are not valid email addresses: ${badAddresses.map((a) => `“${a}”`).join(', ')}.`;
  }
  return errors;
}
