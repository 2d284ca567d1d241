import type { DetectionNotificationConfig } from './detection-notification-config';
import { setUseCustom } from './set-use-custom';
import { deepFreeze, settings } from './testing/factories';

describe('setUseCustom', () => {
  const global = deepFreeze(settings({ recipients: ['global@example.com'] }));
  const inheriting: DetectionNotificationConfig = deepFreeze({ useCustom: false, custom: null });

  it('turning on copies the current global settings as the starting point', () => {
    const config = setUseCustom(inheriting, true, global);
    expect(config).toEqual({ useCustom: true, custom: global });
  });

  it('the copy is independent of the global settings', () => {
    const config = setUseCustom(inheriting, true, global);
    expect(config.custom).not.toBe(global);
    expect(config.custom?.recipients).not.toBe(global.recipients);
  });

  it('copies the global silence too, so flipping the toggle alone changes nothing', () => {
    const snoozedGlobal = settings({ silence: { kind: 'snoozed', until: 123 } });
    expect(setUseCustom(inheriting, true, snoozedGlobal).custom?.silence).toEqual({
      kind: 'snoozed',
      until: 123,
    });
  });

  it('turning on an already custom detection keeps its settings', () => {
    const custom = settings({ recipients: ['mine@example.com'] });
    const config = deepFreeze({ useCustom: true, custom });
    expect(setUseCustom(config, true, global)).toEqual({ useCustom: true, custom });
  });

  it('turning off returns to inherit and discards the custom settings', () => {
    const config = deepFreeze({ useCustom: true, custom: settings({ frequency: 'threshold' }) });
    expect(setUseCustom(config, false, global)).toEqual({ useCustom: false, custom: null });
  });

  it('turning on again after turning off starts from the current global settings, not the old copy', () => {
    const custom = settings({ recipients: ['old@example.com'], silence: { kind: 'disabled' } });
    const off = setUseCustom({ useCustom: true, custom }, false, global);
    const newGlobal = settings({ recipients: ['new@example.com'] });
    expect(setUseCustom(off, true, newGlobal).custom).toEqual(newGlobal);
  });

  it('treats leftover custom settings of an inheriting detection as absent', () => {
    const stale = deepFreeze({
      useCustom: false,
      custom: settings({ recipients: ['x@example.com'] }),
    });
    expect(setUseCustom(stale, true, global).custom).toEqual(global);
  });
});
