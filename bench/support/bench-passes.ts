import { loadavg } from 'node:os';

/** The machine's load average over 1, 5 and 15 minutes, as printed beside a figure. */
export function loadAverage(): string {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(' / ');
}

/** The median of a non-empty list of figures. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Median, lowest and highest of the passes, as one line: `693 (651–702)`. */
export function medianAndSpread(values: readonly number[], digits = 0): string {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return `${median(values).toFixed(digits)} (${low.toFixed(digits)}–${high.toFixed(digits)})`;
}

/** How many passes each side of a bench takes: `BENCH_PASSES`, 3 by default. */
export function passCount(): number {
  const passes = Number(process.env.BENCH_PASSES ?? 3);
  if (!Number.isInteger(passes) || passes < 1) {
    throw new Error(
      `BENCH_PASSES must be a positive whole number, not ${process.env.BENCH_PASSES}`,
    );
  }
  return passes;
}
