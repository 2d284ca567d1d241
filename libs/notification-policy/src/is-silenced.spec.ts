import { isSilenced } from './is-silenced';
import { T0 } from './testing/factories';

describe('isSilenced', () => {
  it('is false without a silence', () => {
    expect(isSilenced({ silence: { kind: 'none' } }, T0)).toBe(false);
  });

  it('is true while disabled, whatever the time', () => {
    expect(isSilenced({ silence: { kind: 'disabled' } }, T0)).toBe(true);
    expect(isSilenced({ silence: { kind: 'disabled' } }, Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it('is true before the end of a snooze and false from its end on', () => {
    const snoozed = { silence: { kind: 'snoozed', until: T0 } } as const;
    expect(isSilenced(snoozed, T0 - 1)).toBe(true);
    expect(isSilenced(snoozed, T0)).toBe(false);
    expect(isSilenced(snoozed, T0 + 1)).toBe(false);
  });
});
