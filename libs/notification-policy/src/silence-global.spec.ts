import { disableGlobal, snoozeGlobal, unsilenceGlobal } from './silence-global';
import { deepFreeze, HOUR, settings, T0 } from './testing/factories';

describe('global silencing', () => {
  const global = deepFreeze(settings({ recipients: ['soc@example.com'] }));

  it('snoozes the global settings from now and keeps everything else', () => {
    expect(snoozeGlobal(global, '24h', T0)).toEqual({
      ...global,
      silence: { kind: 'snoozed', until: T0 + 24 * HOUR },
    });
  });

  it('disables the global settings', () => {
    expect(disableGlobal(global).silence).toEqual({ kind: 'disabled' });
  });

  it('unsilences a disabled or snoozed global configuration', () => {
    expect(unsilenceGlobal(disableGlobal(global))).toEqual(global);
    expect(unsilenceGlobal(snoozeGlobal(global, '1h', T0))).toEqual(global);
  });

  it('returns copies that share no arrays with the input', () => {
    expect(disableGlobal(global).recipients).not.toBe(global.recipients);
  });
});
