import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** What a closed-loop run measured: completed requests per second and their latency. */
export interface ClosedLoopResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** How long the run took, from the first request to the last answer. */
  seconds: number;
  /** Every request's latency, in ascending order. */
  latenciesMs: number[];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * `clients` loops, each sending its next request as soon as the previous one answered, for
 * `durationMs`: the throughput a fixed number of busy users gets, not an offered rate.
 */
export async function closedLoop(
  clients: number,
  durationMs: number,
  send: (i: number) => Promise<void>,
): Promise<ClosedLoopResult> {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const i = next++;
        const t0 = performance.now();
        await send(i);
        times.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return summary(times, seconds);
}

/** Several runs of one side as one: their requests over their time together. */
export function combinedClosedLoops(runs: readonly ClosedLoopResult[]): ClosedLoopResult {
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  return summary(
    runs.flatMap((run) => run.latenciesMs).sort((a, b) => a - b),
    seconds,
  );
}

function summary(sortedTimes: number[], seconds: number): ClosedLoopResult {
  return {
    requestsPerSecond: sortedTimes.length / seconds,
    p50Ms: percentile(sortedTimes, 50),
    p99Ms: percentile(sortedTimes, 99),
    requests: sortedTimes.length,
    seconds,
    latenciesMs: sortedTimes,
  };
}

/** CPU seconds (user + system) a process of this machine has used so far, from /proc. */
export function cpuSecondsOfProcess(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  // Linux reports in clock ticks, 100 a second on every architecture Node runs on here.
  return (utime + stime) / 100;
}
