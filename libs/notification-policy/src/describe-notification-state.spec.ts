import { DEFAULT_NOTIFICATION_SETTINGS } from './notification-settings';
import { describeNotificationState } from './describe-notification-state';

const NOW = Date.UTC(2026, 0, 1);
const global = {
  ...DEFAULT_NOTIFICATION_SETTINGS,
  webhookEnabled: true,
  webhookProviderIds: ['p1'],
};

describe('describeNotificationState', () => {
  it('reports an inheriting detection with the global settings', () => {
    expect(describeNotificationState(global, undefined, NOW)).toEqual({
      configuration: 'global',
      state: 'active',
      snoozedUntil: null,
      frequency: 'batch',
      emailEnabled: false,
      webhookEnabled: true,
    });
  });

  it('reports a snooze that is still running, with its end', () => {
    const custom = { ...global, silence: { kind: 'snoozed' as const, until: NOW + 60_000 } };
    expect(describeNotificationState(global, { useCustom: true, custom }, NOW)).toMatchObject({
      configuration: 'custom',
      state: 'snoozed',
      snoozedUntil: NOW + 60_000,
    });
  });

  it('reports an expired snooze as active', () => {
    const custom = { ...global, silence: { kind: 'snoozed' as const, until: NOW - 1 } };
    expect(describeNotificationState(global, { useCustom: true, custom }, NOW)).toMatchObject({
      state: 'active',
      snoozedUntil: null,
    });
  });

  it('reports a globally disabled configuration for an inheriting detection', () => {
    const disabled = { ...global, silence: { kind: 'disabled' as const } };
    expect(describeNotificationState(disabled, undefined, NOW).state).toBe('disabled');
  });
});
