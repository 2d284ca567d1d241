import { DEFAULT_NOTIFICATION_SETTINGS } from '@vigil/notification-policy';
import {
  formValuesOf,
  parseNotificationSettingsForm,
  readNotificationSettingsForm,
  splitRecipients,
  type NotificationSettingsFormValues,
} from './notification-settings-form';

const PROVIDER = '0b6a9a4e-4b8a-4f38-9d1e-9f3f5f2b1a11';

function aForm(overrides: Partial<NotificationSettingsFormValues> = {}) {
  return { ...formValuesOf({ ...DEFAULT_NOTIFICATION_SETTINGS }), ...overrides };
}

describe('the notification settings form', () => {
  it('reads checkboxes, repeated provider fields and text as typed', () => {
    const values = readNotificationSettingsForm({
      email_enabled: 'on',
      recipients: 'a@example.com\nb@example.com',
      frequency: 'threshold',
      threshold: '10',
      batch_window_minutes: '30',
      provider: [PROVIDER, 'other'],
      max_events: '5,000',
    });
    expect(values).toEqual({
      emailEnabled: true,
      recipients: 'a@example.com\nb@example.com',
      frequency: 'threshold',
      threshold: '10',
      batchWindowMinutes: '30',
      webhookEnabled: false,
      providerIds: [PROVIDER, 'other'],
      maxEvents: '5,000',
    });
  });

  it('takes recipients one per line or separated by commas', () => {
    expect(splitRecipients(' a@example.com,b@example.com\n\n c@example.com ;')).toEqual([
      'a@example.com',
      'b@example.com',
      'c@example.com',
    ]);
  });

  it('turns a valid form into settings, keeping the stored silence', () => {
    const parsed = parseNotificationSettingsForm(
      aForm({
        emailEnabled: true,
        recipients: 'Ops@Example.com, sec@example.com',
        frequency: 'threshold',
        threshold: '25',
        webhookEnabled: true,
        providerIds: [PROVIDER],
        maxEvents: '5,000',
      }),
      { kind: 'disabled' },
      [PROVIDER],
    );
    expect(parsed).toEqual({
      ok: true,
      settings: {
        emailEnabled: true,
        recipients: ['ops@example.com', 'sec@example.com'],
        frequency: 'threshold',
        threshold: 25,
        batchWindowMinutes: 60,
        webhookEnabled: true,
        webhookProviderIds: [PROVIDER],
        maxEventsPerNotification: 5000,
        silence: { kind: 'disabled' },
      },
    });
  });

  it('names every bad recipient address', () => {
    const one = parseNotificationSettingsForm(
      aForm({ emailEnabled: true, recipients: 'ok@example.com\nnot-an-address' }),
      { kind: 'none' },
      [],
    );
    expect(one).toEqual({
      ok: false,
      errors: { recipients: '“not-an-address” is not a valid email address.', other: [] },
    });
    const two = parseNotificationSettingsForm(
      aForm({ recipients: 'x@, @y.com' }),
      { kind: 'none' },
      [],
    );
    expect(!two.ok && two.errors.recipients).toBe(
      'These are not valid email addresses: “x@”, “@y.com”.',
    );
  });

  it('refuses Threshold without a value, and out-of-range numbers, next to each field', () => {
    const parsed = parseNotificationSettingsForm(
      aForm({ frequency: 'threshold', threshold: '', batchWindowMinutes: '0', maxEvents: 'many' }),
      { kind: 'none' },
      [],
    );
    expect(parsed).toEqual({
      ok: false,
      errors: {
        threshold: 'Enter the event count to exceed: Threshold mode needs it.',
        batchWindowMinutes: 'Batch window must be a whole number of minutes from 1 to 1,440.',
        maxEvents: 'Max events per notification must be a whole number from 1 to 10,000.',
        other: [],
      },
    });
  });

  it('asks for a target when a channel is on without one', () => {
    const parsed = parseNotificationSettingsForm(
      aForm({ emailEnabled: true, webhookEnabled: true }),
      { kind: 'none' },
      [PROVIDER],
    );
    expect(parsed).toEqual({
      ok: false,
      errors: {
        recipients: 'Add at least one recipient, or turn email off.',
        providers: 'Select at least one provider, or turn webhooks off.',
        other: [],
      },
    });
  });

  it('refuses a provider that is not enrolled', () => {
    const parsed = parseNotificationSettingsForm(
      aForm({ webhookEnabled: true, providerIds: ['deleted-one'] }),
      { kind: 'none' },
      [PROVIDER],
    );
    expect(!parsed.ok && parsed.errors.providers).toBe(
      'A selected provider is no longer enrolled. Reload the page and choose again.',
    );
  });
});
