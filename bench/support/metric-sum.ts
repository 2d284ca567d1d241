/**
 * The value of each series of `metric` in a Prometheus text page whose line holds
 * `labelFilter`, summed (0 when none is there).
 */
export function metricSum(page: string, metric: string, labelFilter = ''): number {
  let sum = 0;
  for (const line of page.split('\n')) {
    if (!line.startsWith(metric) || !line.includes(labelFilter)) continue;
    const name = line.slice(0, line.search(/[{ ]/));
    if (name !== metric) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  if (!Number.isFinite(sum)) throw new Error(`${metric}: not a number in the page`);
  return sum;
}
