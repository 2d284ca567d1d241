import { formatTimeLeft, silenceStatus } from './silence-status';

const MIN = 60_000;
const HOUR = 60 * MIN;
const NOW = Date.parse('2026-11-21T05:10:30Z');

describe('silence status', () => {
  it('shows the time left in whole units, rounded down', () => {
    expect(formatTimeLeft(24 * HOUR - 30_000)).toBe('23 h 59 min');
    expect(formatTimeLeft(HOUR)).toBe('1 h');
    expect(formatTimeLeft(59 * MIN + 59_000)).toBe('59 min');
    expect(formatTimeLeft(7 * 24 * HOUR - 1)).toBe('6 d 23 h');
    expect(formatTimeLeft(2 * 24 * HOUR)).toBe('2 d');
    expect(formatTimeLeft(30_000)).toBe('less than 1 min');
  });

  it('describes a running snooze with its end in UTC', () => {
    const until = Date.parse('2026-11-22T05:10:00Z');
    expect(silenceStatus({ kind: 'snoozed', until }, NOW)).toEqual({
      kind: 'snoozed',
      until: new Date(until),
      summary: 'Snoozed — 23 h 59 min left, until 22 Nov 2026, 05:10 UTC',
    });
  });

  it('reads an ended snooze as on, and a disable as disabled', () => {
    expect(silenceStatus({ kind: 'snoozed', until: NOW - 1 }, NOW)).toEqual({ kind: 'on' });
    expect(silenceStatus({ kind: 'none' }, NOW)).toEqual({ kind: 'on' });
    expect(silenceStatus({ kind: 'disabled' }, NOW).kind).toBe('disabled');
  });
});
