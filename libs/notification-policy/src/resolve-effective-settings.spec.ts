import { isSilenced } from './is-silenced';
import { resolveEffectiveSettings } from './resolve-effective-settings';
import { settings, T0 } from './testing/factories';

describe('resolveEffectiveSettings', () => {
  const global = settings({ recipients: ['global@example.com'] });
  const custom = settings({ recipients: ['custom@example.com'] });

  it('uses the global settings for a detection that inherits', () => {
    expect(resolveEffectiveSettings(global, { useCustom: false, custom: null })).toEqual({
      settings: global,
      source: 'global',
    });
  });

  it('uses the global settings when a detection has no configuration at all', () => {
    expect(resolveEffectiveSettings(global, undefined).source).toBe('global');
    expect(resolveEffectiveSettings(global, null).source).toBe('global');
  });

  it("uses the detection's own settings when it is custom", () => {
    expect(resolveEffectiveSettings(global, { useCustom: true, custom })).toEqual({
      settings: custom,
      source: 'custom',
    });
  });

  it('ignores leftover custom settings of a detection whose toggle is off', () => {
    expect(resolveEffectiveSettings(global, { useCustom: false, custom }).settings).toBe(global);
  });

  it('falls back to global when the toggle is on but custom settings are missing', () => {
    expect(resolveEffectiveSettings(global, { useCustom: true, custom: null }).source).toBe(
      'global',
    );
  });

  it('lets a silenced global configuration silence inheriting detections only', () => {
    const silencedGlobal = settings({ silence: { kind: 'disabled' } });
    const inheriting = resolveEffectiveSettings(silencedGlobal, { useCustom: false, custom: null });
    const ownSettings = resolveEffectiveSettings(silencedGlobal, { useCustom: true, custom });
    expect(isSilenced(inheriting.settings, T0)).toBe(true);
    expect(isSilenced(ownSettings.settings, T0)).toBe(false);
  });
});
