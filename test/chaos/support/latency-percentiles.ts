/** The p-th percentile (0–100) of `values`, nearest rank; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarize(values: readonly number[]): LatencySummary {
  return {
    count: values.length,
    p50: Math.round(percentile(values, 50)),
    p99: Math.round(percentile(values, 99)),
    max: Math.round(percentile(values, 100)),
  };
}
