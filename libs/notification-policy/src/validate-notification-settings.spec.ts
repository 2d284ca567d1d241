import { DEFAULT_NOTIFICATION_SETTINGS } from './notification-settings';
import { settings } from './testing/factories';
import { validateNotificationSettings } from './validate-notification-settings';

function errorsOf(input: unknown): Array<{ field: string; message: string }> {
  const result = validateNotificationSettings(input);
  if (result.ok) throw new Error('expected validation to fail');
  return result.errors;
}

function fieldsOf(input: unknown): string[] {
  return errorsOf(input).map((e) => e.field);
}

describe('validateNotificationSettings', () => {
  it('accepts complete valid settings unchanged', () => {
    const input = settings({ frequency: 'threshold', threshold: 10 });
    expect(validateNotificationSettings(input)).toEqual({ ok: true, value: input });
  });

  it('fills missing fields with the defaults of SPEC §2.5 (Batch, 60 minutes, 5,000 events)', () => {
    expect(validateNotificationSettings({})).toEqual({
      ok: true,
      value: DEFAULT_NOTIFICATION_SETTINGS,
    });
    expect(DEFAULT_NOTIFICATION_SETTINGS).toMatchObject({
      frequency: 'batch',
      batchWindowMinutes: 60,
      maxEventsPerNotification: 5000,
      silence: { kind: 'none' },
    });
  });

  it('normalizes recipients (trim, lowercase, de-duplicate) and provider ids (trim, de-duplicate)', () => {
    const result = validateNotificationSettings({
      emailEnabled: true,
      recipients: [' SOC@Example.com ', 'soc@example.com', 'ciso@example.org'],
      webhookEnabled: true,
      webhookProviderIds: [' tines ', 'tines', 'custom-1'],
    });
    expect(result).toMatchObject({
      ok: true,
      value: {
        recipients: ['soc@example.com', 'ciso@example.org'],
        webhookProviderIds: ['tines', 'custom-1'],
      },
    });
  });

  it('drops unknown fields', () => {
    const result = validateNotificationSettings({ ...settings(), useCustom: true });
    expect(result.ok && 'useCustom' in result.value).toBe(false);
  });

  it('refuses something that is not an object', () => {
    expect(errorsOf(null)).toEqual([{ field: '', message: 'must be an object' }]);
    expect(fieldsOf([])).toEqual(['']);
  });

  it.each([
    'not-an-email',
    'a@b',
    '@example.com',
    'a@',
    'a b@example.com',
    'a..b@example.com',
    'a@-x.com',
    'a@example.c0m',
  ])('refuses the recipient %j, naming its position', (address) => {
    expect(errorsOf({ emailEnabled: true, recipients: ['ok@example.com', address] })).toEqual([
      { field: 'recipients[1]', message: `"${address}" is not a valid email address` },
    ]);
  });

  it('accepts ordinary addresses with plus tags, dots and subdomains', () => {
    const recipients = ['first.last+soc@mail.example.co.uk', "o'brien@example.com"];
    expect(validateNotificationSettings({ emailEnabled: true, recipients }).ok).toBe(true);
  });

  it('requires a recipient when email is enabled, but not when it is disabled', () => {
    expect(fieldsOf({ emailEnabled: true, recipients: [] })).toEqual(['recipients']);
    expect(validateNotificationSettings({ emailEnabled: false, recipients: [] }).ok).toBe(true);
  });

  it('requires a provider when webhooks are enabled', () => {
    expect(fieldsOf({ webhookEnabled: true })).toEqual(['webhookProviderIds']);
    expect(fieldsOf({ webhookProviderIds: ['  '] })).toEqual(['webhookProviderIds[0]']);
  });

  it('limits the number of recipients', () => {
    const recipients = Array.from({ length: 101 }, (_, i) => `user${i}@example.com`);
    expect(fieldsOf({ recipients })).toEqual(['recipients']);
  });

  it('refuses an unknown frequency', () => {
    expect(errorsOf({ frequency: 'hourly' })).toEqual([
      { field: 'frequency', message: 'must be one of batch, immediate, threshold' },
    ]);
  });

  it.each([0, 1441, 1.5, '60'])('refuses the batch window %j (1..1440 whole minutes)', (value) => {
    expect(fieldsOf({ batchWindowMinutes: value })).toEqual(['batchWindowMinutes']);
  });

  it.each([1, 1440])('accepts the batch window %j', (value) => {
    expect(validateNotificationSettings({ batchWindowMinutes: value }).ok).toBe(true);
  });

  it.each([0, 10001, 2.5, null])('refuses max events per notification %j (1..10000)', (value) => {
    expect(fieldsOf({ maxEventsPerNotification: value })).toEqual(['maxEventsPerNotification']);
  });

  it('requires a threshold in Threshold mode', () => {
    expect(errorsOf({ frequency: 'threshold' })).toEqual([
      { field: 'threshold', message: 'is required when the frequency is threshold' },
    ]);
    expect(fieldsOf({ frequency: 'threshold', threshold: null })).toEqual(['threshold']);
  });

  it.each([-1, 2.5, '10'])('refuses the threshold %j (a whole number >= 0)', (value) => {
    expect(fieldsOf({ frequency: 'threshold', threshold: value })).toEqual(['threshold']);
  });

  it('accepts a threshold of 0 and keeps a threshold outside Threshold mode', () => {
    expect(validateNotificationSettings({ frequency: 'threshold', threshold: 0 }).ok).toBe(true);
    expect(validateNotificationSettings({ frequency: 'batch', threshold: 7 })).toMatchObject({
      ok: true,
      value: { threshold: 7 },
    });
  });

  it('validates the silence', () => {
    expect(validateNotificationSettings({ silence: { kind: 'disabled' } }).ok).toBe(true);
    expect(validateNotificationSettings({ silence: { kind: 'snoozed', until: 1 } }).ok).toBe(true);
    expect(fieldsOf({ silence: { kind: 'snoozed' } })).toEqual(['silence.until']);
    expect(fieldsOf({ silence: { kind: 'snoozed', until: -5 } })).toEqual(['silence.until']);
    expect(fieldsOf({ silence: { kind: 'muted' } })).toEqual(['silence.kind']);
    expect(fieldsOf({ silence: 'none' })).toEqual(['silence']);
  });

  it('refuses booleans of the wrong type', () => {
    expect(fieldsOf({ emailEnabled: 'yes', webhookEnabled: 1 })).toEqual([
      'emailEnabled',
      'webhookEnabled',
    ]);
  });

  it('reports every problem at once', () => {
    expect(
      fieldsOf({
        recipients: ['bad'],
        frequency: 'threshold',
        batchWindowMinutes: 0,
        maxEventsPerNotification: 0,
      }),
    ).toEqual(['recipients[0]', 'batchWindowMinutes', 'maxEventsPerNotification', 'threshold']);
  });
});
