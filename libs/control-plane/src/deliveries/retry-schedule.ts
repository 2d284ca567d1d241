const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DELAY = /^(\d+)(ms|s|m|h|d)$/;

/** DESIGN §5: the delays before each retry after a failed attempt. */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

/** Parses `5s,5m,30m,2h` into milliseconds; throws on anything else. */
export function parseRetrySchedule(text: string): number[] {
  const delays = text.split(',').map((part) => {
    const match = DELAY.exec(part.trim());
    if (!match) throw new Error(`"${part.trim()}" is not a delay such as 500ms, 5s, 5m, 2h or 1d`);
    return Number(match[1]) * UNIT_MS[match[2]];
  });
  if (delays.length === 0) throw new Error('The retry schedule is empty');
  return delays;
}

/**
 * After the `failures`-th failed attempt of a series: wait the schedule's delay for it, plus up
 * to 10% jitter so endpoints recovering from an outage are not hit by every retry at once; or
 * give up (null) once the schedule is exhausted.
 */
export function nextRetryDelay(
  schedule: readonly number[],
  failures: number,
  random: () => number = Math.random,
): number | null {
  if (failures < 1 || failures > schedule.length) return null;
  const delay = schedule[failures - 1];
  return Math.round(delay + delay * 0.1 * random());
}
