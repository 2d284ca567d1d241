import { DEFAULT_RETRY_SCHEDULE, nextRetryDelay, parseRetrySchedule } from './retry-schedule';

describe('parseRetrySchedule', () => {
  it('reads the default schedule of DESIGN §5', () => {
    expect(parseRetrySchedule(DEFAULT_RETRY_SCHEDULE)).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
  });

  it('reads milliseconds and days, with spaces', () => {
    expect(parseRetrySchedule('200ms, 400ms,1d')).toEqual([200, 400, 86_400_000]);
  });

  it.each(['', '5', '5x', '5s,,5m', '-5s'])('refuses "%s"', (text) => {
    expect(() => parseRetrySchedule(text)).toThrow();
  });
});

describe('nextRetryDelay', () => {
  const schedule = [1000, 60_000];

  it('waits the delay of the failure number, plus at most 10% jitter', () => {
    expect(nextRetryDelay(schedule, 1, () => 0)).toBe(1000);
    expect(nextRetryDelay(schedule, 1, () => 0.999)).toBe(1100);
    expect(nextRetryDelay(schedule, 2, () => 0.5)).toBe(63_000);
  });

  it('gives up once the schedule is exhausted', () => {
    expect(nextRetryDelay(schedule, 3)).toBeNull();
  });
});
