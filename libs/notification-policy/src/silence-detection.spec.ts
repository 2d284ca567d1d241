import type { DetectionNotificationConfig } from './detection-notification-config';
import { isSilenced } from './is-silenced';
import { resolveEffectiveSettings } from './resolve-effective-settings';
import { disableDetection, snoozeDetection, unsilenceDetection } from './silence-detection';
import { SNOOZE_DURATIONS } from './snooze-durations';
import { deepFreeze, HOUR, settings, T0 } from './testing/factories';

describe('snooze durations', () => {
  it('are 1 hour, 24 hours and 7 days', () => {
    expect(SNOOZE_DURATIONS).toEqual({ '1h': HOUR, '24h': 24 * HOUR, '7d': 7 * 24 * HOUR });
  });
});

describe('snoozeDetection', () => {
  const global = deepFreeze(settings({ recipients: ['global@example.com'], frequency: 'batch' }));
  const inheriting: DetectionNotificationConfig = deepFreeze({ useCustom: false, custom: null });

  it.each([
    ['1h', HOUR],
    ['24h', 24 * HOUR],
    ['7d', 7 * 24 * HOUR],
  ] as const)('snoozes for %s from now', (duration, length) => {
    const config = snoozeDetection(inheriting, global, duration, T0);
    expect(config.custom?.silence).toEqual({ kind: 'snoozed', until: T0 + length });
  });

  it('makes an inheriting detection custom with a copy of the current global settings', () => {
    const config = snoozeDetection(inheriting, global, '1h', T0);
    expect(config).toEqual({
      useCustom: true,
      custom: { ...global, silence: { kind: 'snoozed', until: T0 + HOUR } },
    });
  });

  it('leaves the global settings untouched, so other detections keep notifying', () => {
    snoozeDetection(inheriting, global, '1h', T0);
    expect(global.silence).toEqual({ kind: 'none' });
  });

  it('keeps the own settings of a custom detection and only sets the snooze', () => {
    const custom = settings({
      recipients: ['mine@example.com'],
      frequency: 'threshold',
      threshold: 3,
    });
    const config = snoozeDetection(deepFreeze({ useCustom: true, custom }), global, '24h', T0);
    expect(config.custom).toEqual({
      ...custom,
      silence: { kind: 'snoozed', until: T0 + 24 * HOUR },
    });
  });

  it('replaces a permanent disable by the chosen snooze', () => {
    const disabled = disableDetection(inheriting, global);
    expect(snoozeDetection(disabled, global, '1h', T0).custom?.silence.kind).toBe('snoozed');
  });

  it('stays custom after the snooze expires', () => {
    const config = snoozeDetection(inheriting, global, '1h', T0);
    const afterwards = resolveEffectiveSettings(global, config);
    expect(afterwards.source).toBe('custom');
    expect(isSilenced(afterwards.settings, T0 + HOUR - 1)).toBe(true);
    expect(isSilenced(afterwards.settings, T0 + HOUR)).toBe(false);
  });
});

describe('disableDetection', () => {
  const global = deepFreeze(settings());

  it('disables an inheriting detection by making it custom with a copy of global', () => {
    expect(disableDetection({ useCustom: false, custom: null }, global)).toEqual({
      useCustom: true,
      custom: { ...global, silence: { kind: 'disabled' } },
    });
  });

  it('disables a custom detection and keeps its settings', () => {
    const custom = settings({ recipients: ['mine@example.com'] });
    expect(disableDetection({ useCustom: true, custom }, global).custom).toEqual({
      ...custom,
      silence: { kind: 'disabled' },
    });
  });
});

describe('unsilenceDetection', () => {
  const global = deepFreeze(settings());

  it('lifts a snooze and stays custom', () => {
    const snoozed = snoozeDetection({ useCustom: false, custom: null }, global, '7d', T0);
    expect(unsilenceDetection(deepFreeze(snoozed))).toEqual({
      useCustom: true,
      custom: { ...global, silence: { kind: 'none' } },
    });
  });

  it('lifts a permanent disable', () => {
    const disabled = disableDetection({ useCustom: false, custom: null }, global);
    expect(unsilenceDetection(disabled).custom?.silence).toEqual({ kind: 'none' });
  });

  it('leaves an inheriting detection as it is (a global silence is lifted globally)', () => {
    const inheriting = deepFreeze({ useCustom: false, custom: null });
    expect(unsilenceDetection(inheriting)).toBe(inheriting);
  });
});
