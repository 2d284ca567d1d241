import { type SettingsFieldError } from '@vigil/notification-policy';

/** Settings refused by the store; `errors` name each offending field for the form. */
export class InvalidNotificationSettingsError extends Error {
  constructor(readonly errors: readonly SettingsFieldError[]) {
    super(
      `invalid notification settings: ${errors
        .map((e) => `${e.field || '(settings)'} ${e.message}`)
        .join('; ')}`,
    );
    this.name = 'InvalidNotificationSettingsError';
  }
}
