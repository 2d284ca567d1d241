/** Robust comparisons of two latency samples (milliseconds), for timing side-channel checks. */

export interface LatencySummary {
  readonly count: number;
  readonly median: number;
  readonly p10: number;
  readonly p90: number;
  /** Mean of the middle 80 %: robust to scheduler hiccups on a busy machine. */
  readonly trimmedMean: number;
}

function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const cut = Math.floor(sorted.length * 0.1);
  const middle = sorted.slice(cut, sorted.length - cut);
  return {
    count: sorted.length,
    median: quantile(sorted, 0.5),
    p10: quantile(sorted, 0.1),
    p90: quantile(sorted, 0.9),
    trimmedMean: middle.reduce((sum, x) => sum + x, 0) / middle.length,
  };
}

/**
 * The Mann-Whitney common-language effect size: the probability that a draw from `a` is slower
 * than a draw from `b` (ties count half). 0.5 means neither is systematically slower; it does
 * not depend on the distributions' shape, so long tails from a busy machine do not move it much.
 */
export function probabilitySlower(a: readonly number[], b: readonly number[]): number {
  const all = [
    ...a.map((value) => ({ value, fromA: true })),
    ...b.map((value) => ({ value, fromA: false })),
  ].sort((x, y) => x.value - y.value);
  let rankSumA = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && all[j].value === all[i].value) j += 1;
    const averageRank = (i + 1 + j) / 2;
    for (let k = i; k < j; k += 1) if (all[k].fromA) rankSumA += averageRank;
    i = j;
  }
  const u = rankSumA - (a.length * (a.length + 1)) / 2;
  return u / (a.length * b.length);
}

/** Two-sample Kolmogorov-Smirnov statistic: the largest gap between the empirical CDFs. */
export function ksStatistic(a: readonly number[], b: readonly number[]): number {
  const sa = [...a].sort((x, y) => x - y);
  const sb = [...b].sort((x, y) => x - y);
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < sa.length && j < sb.length) {
    const x = Math.min(sa[i], sb[j]);
    while (i < sa.length && sa[i] <= x) i += 1;
    while (j < sb.length && sb[j] <= x) j += 1;
    d = Math.max(d, Math.abs(i / sa.length - j / sb.length));
  }
  return d;
}

export function formatSummary(name: string, s: LatencySummary): string {
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  return `${name.padEnd(34)} n=${s.count} median ${ms(s.median)} trimmed mean ${ms(
    s.trimmedMean,
  )} p10 ${ms(s.p10)} p90 ${ms(s.p90)}`;
}
