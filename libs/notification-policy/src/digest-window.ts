/** The tumbling digest window containing `now`, aligned to the epoch so every instance agrees. */
export function digestWindow(
  now: number,
  windowMinutes: number,
): { windowStart: number; windowEnd: number } {
  const length = windowMinutes * 60_000;
  const windowStart = Math.floor(now / length) * length;
  return { windowStart, windowEnd: windowStart + length };
}
