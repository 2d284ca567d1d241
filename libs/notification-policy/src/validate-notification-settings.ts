import { isEmailAddress } from './is-email-address';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  MAX_BATCH_WINDOW_MINUTES,
  MAX_MAX_EVENTS_PER_NOTIFICATION,
  MAX_RECIPIENTS,
  MAX_WEBHOOK_PROVIDERS,
  MIN_BATCH_WINDOW_MINUTES,
  MIN_MAX_EVENTS_PER_NOTIFICATION,
  NOTIFICATION_FREQUENCIES,
  type NotificationFrequency,
  type NotificationSettings,
  type NotificationSilence,
} from './notification-settings';

export interface SettingsFieldError {
  /** Path of the offending field, e.g. `recipients[1]` or `silence.until`. */
  field: string;
  message: string;
}

export type SettingsValidationResult =
  { ok: true; value: NotificationSettings } | { ok: false; errors: SettingsFieldError[] };

/**
 * Validates settings coming from a form or from storage and returns them normalized.
 * - A missing (undefined) field takes its default (DEFAULT_NOTIFICATION_SETTINGS); a present
 *   field of the wrong type is an error. Unknown fields are dropped.
 * - Recipients are trimmed, lowercased and de-duplicated; provider ids are trimmed and de-duplicated.
 * - Enabling a channel requires at least one target; Threshold mode requires a threshold.
 * - Whether provider ids are enrolled is not checked here (that needs the database).
 * Every problem is reported, not only the first.
 */
export function validateNotificationSettings(input: unknown): SettingsValidationResult {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, errors: [{ field: '', message: 'must be an object' }] };
  }
  const raw = input as Record<string, unknown>;
  const errors: SettingsFieldError[] = [];
  const fail = (field: string, message: string): void => {
    errors.push({ field, message });
  };
  const d = DEFAULT_NOTIFICATION_SETTINGS;

  const emailEnabled = readBoolean(raw.emailEnabled, d.emailEnabled, 'emailEnabled', fail);
  const webhookEnabled = readBoolean(raw.webhookEnabled, d.webhookEnabled, 'webhookEnabled', fail);

  const recipients = readStringList(
    raw.recipients,
    'recipients',
    MAX_RECIPIENTS,
    fail,
    (item, field) => {
      const address = item.trim().toLowerCase();
      if (!isEmailAddress(address)) {
        fail(field, `"${item}" is not a valid email address`);
        return null;
      }
      return address;
    },
  );
  if (
    emailEnabled &&
    recipients.length === 0 &&
    !errors.some((e) => e.field.startsWith('recipients'))
  ) {
    fail('recipients', 'at least one recipient is required when email is enabled');
  }

  const webhookProviderIds = readStringList(
    raw.webhookProviderIds,
    'webhookProviderIds',
    MAX_WEBHOOK_PROVIDERS,
    fail,
    (item, field) => {
      const id = item.trim();
      if (id === '') {
        fail(field, 'must not be empty');
        return null;
      }
      return id;
    },
  );
  if (
    webhookEnabled &&
    webhookProviderIds.length === 0 &&
    !errors.some((e) => e.field.startsWith('webhookProviderIds'))
  ) {
    fail('webhookProviderIds', 'select at least one webhook provider when webhooks are enabled');
  }

  let frequency: NotificationFrequency = d.frequency;
  if (raw.frequency !== undefined) {
    if (NOTIFICATION_FREQUENCIES.includes(raw.frequency as NotificationFrequency)) {
      frequency = raw.frequency as NotificationFrequency;
    } else {
      fail('frequency', `must be one of ${NOTIFICATION_FREQUENCIES.join(', ')}`);
    }
  }

  const batchWindowMinutes = readInteger(
    raw.batchWindowMinutes,
    d.batchWindowMinutes,
    'batchWindowMinutes',
    MIN_BATCH_WINDOW_MINUTES,
    MAX_BATCH_WINDOW_MINUTES,
    fail,
  );
  const maxEventsPerNotification = readInteger(
    raw.maxEventsPerNotification,
    d.maxEventsPerNotification,
    'maxEventsPerNotification',
    MIN_MAX_EVENTS_PER_NOTIFICATION,
    MAX_MAX_EVENTS_PER_NOTIFICATION,
    fail,
  );

  let threshold: number | null = null;
  if (raw.threshold !== undefined && raw.threshold !== null) {
    threshold = readInteger(raw.threshold, 0, 'threshold', 0, Number.MAX_SAFE_INTEGER, fail);
  } else if (frequency === 'threshold') {
    fail('threshold', 'is required when the frequency is threshold');
  }

  const silence = readSilence(raw.silence, fail);

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      emailEnabled,
      recipients,
      frequency,
      batchWindowMinutes,
      webhookEnabled,
      webhookProviderIds,
      maxEventsPerNotification,
      threshold,
      silence,
    },
  };
}

type Fail = (field: string, message: string) => void;

function readBoolean(value: unknown, fallback: boolean, field: string, fail: Fail): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  fail(field, 'must be true or false');
  return fallback;
}

function readInteger(
  value: unknown,
  fallback: number,
  field: string,
  min: number,
  max: number,
  fail: Fail,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    fail(field, 'must be an integer');
    return fallback;
  }
  if (value < min || value > max) {
    fail(field, `must be between ${min} and ${max}`);
    return fallback;
  }
  return value;
}

function readStringList(
  value: unknown,
  field: string,
  maxItems: number,
  fail: Fail,
  normalize: (item: string, field: string) => string | null,
): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    fail(field, 'must be a list');
    return [];
  }
  const out: string[] = [];
  value.forEach((item: unknown, index) => {
    const itemField = `${field}[${index}]`;
    if (typeof item !== 'string') {
      fail(itemField, 'must be a string');
      return;
    }
    const normalized = normalize(item, itemField);
    if (normalized !== null && !out.includes(normalized)) out.push(normalized);
  });
  if (out.length > maxItems) fail(field, `at most ${maxItems} entries are allowed`);
  return out;
}

function readSilence(value: unknown, fail: Fail): NotificationSilence {
  if (value === undefined) return { kind: 'none' };
  if (value === null || typeof value !== 'object') {
    fail('silence', 'must be an object with a kind');
    return { kind: 'none' };
  }
  const silence = value as Record<string, unknown>;
  switch (silence.kind) {
    case 'none':
      return { kind: 'none' };
    case 'disabled':
      return { kind: 'disabled' };
    case 'snoozed':
      if (
        typeof silence.until !== 'number' ||
        !Number.isSafeInteger(silence.until) ||
        silence.until < 0
      ) {
        fail('silence.until', 'must be a timestamp in epoch milliseconds');
        return { kind: 'none' };
      }
      return { kind: 'snoozed', until: silence.until };
    default:
      fail('silence.kind', 'must be one of none, disabled, snoozed');
      return { kind: 'none' };
  }
}
