/** Injection token: how long a rotated-out signing secret keeps signing (WEBHOOK_SECRET_OVERLAP). */
export const SECRET_OVERLAP_MS = Symbol('SECRET_OVERLAP_MS');

/** `24 hours`, `90 minutes`, `2 days`: the overlap as the pages say it. */
export function describeOverlap(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1_000, 'second'],
  ];
  for (const [size, unit] of units) {
    if (ms >= size && ms % size === 0) {
      const count = ms / size;
      // 24 hours reads better than 1 day for the default.
      if (unit === 'day' && count === 1) return '24 hours';
      return `${count} ${unit}${count === 1 ? '' : 's'}`;
    }
  }
  return `${ms} ms`;
}
