import { decide } from './decide';
import { nextWakeUp } from './next-wake-up';
import { snoozeDetection } from './silence-detection';
import { resolveEffectiveSettings } from './resolve-effective-settings';
import { addEvents, HOUR, MINUTE, settings, stateWith, T0 } from './testing/factories';

describe('nextWakeUp', () => {
  const snoozed = settings({ silence: { kind: 'snoozed', until: T0 + HOUR } });

  it('is null when everything has been notified', () => {
    const { state } = decide(stateWith(3), settings(), T0);
    expect(nextWakeUp(state, settings(), T0)).toBeNull();
  });

  it('is the end of the snooze when the count rose during it', () => {
    expect(nextWakeUp(stateWith(3), snoozed, T0 + MINUTE)).toBe(T0 + HOUR);
  });

  it('is null during a snooze when nothing new arrived', () => {
    const { state } = decide(stateWith(3), settings(), T0);
    expect(nextWakeUp(state, snoozed, T0 + MINUTE)).toBeNull();
  });

  it('is null during a snooze when the threshold will still not be exceeded at its end', () => {
    const thresholdSnoozed = { ...snoozed, frequency: 'threshold' as const, threshold: 10 };
    expect(nextWakeUp(stateWith(3), thresholdSnoozed, T0)).toBeNull();
  });

  it('is null during a snooze when no channel can deliver', () => {
    const noChannels = { ...snoozed, emailEnabled: false, webhookEnabled: false };
    expect(nextWakeUp(stateWith(3), noChannels, T0)).toBeNull();
  });

  it('is null while disabled: only a settings change ends it', () => {
    expect(nextWakeUp(stateWith(3), settings({ silence: { kind: 'disabled' } }), T0)).toBeNull();
  });

  it('is now when something can be sent right away (e.g. a channel was just enabled)', () => {
    const { state } = decide(stateWith(3), settings({ webhookEnabled: false }), T0);
    expect(nextWakeUp(state, settings(), T0 + MINUTE)).toBe(T0 + MINUTE);
  });

  it('is now for an expired snooze with pending events', () => {
    expect(nextWakeUp(stateWith(3), snoozed, T0 + 2 * HOUR)).toBe(T0 + 2 * HOUR);
  });

  it('drives the timer that reports the events of a snoozed detection when the snooze ends', () => {
    const global = settings();
    const first = decide(stateWith(2), global, T0);
    const config = snoozeDetection({ useCustom: false, custom: null }, global, '1h', T0 + MINUTE);
    const effective = resolveEffectiveSettings(global, config).settings;
    const during = decide(
      addEvents(first.state, 3, 5, T0 + 2 * MINUTE),
      effective,
      T0 + 2 * MINUTE,
    );
    expect(during.decisions).toEqual([]);

    const wakeAt = nextWakeUp(during.state, effective, T0 + 2 * MINUTE);
    expect(wakeAt).toBe(T0 + MINUTE + HOUR);
    const fired = decide(during.state, effective, wakeAt!);
    expect(fired.decisions.map((d) => [d.kind, d.previousCount, d.currentCount])).toEqual([
      ['webhook', 2, 5],
      ['email', 2, 5],
    ]);
    expect(nextWakeUp(fired.state, effective, wakeAt!)).toBeNull();
  });
});
