import { settleWithin } from '@vigil/config';
import type { ReadinessCheck } from './readiness-check';

export interface ReadinessOptions {
  /** How long a check may take before it counts as failed (default 800 ms). */
  readonly timeoutMs?: number;
  /** How long an answer is reused unless the check says otherwise (default 2 s). */
  readonly cacheMs?: number;
  /** Told every result, for the vigil_dependency_up gauge. */
  readonly onResult?: (app: string, dependency: string, up: boolean) => void;
  readonly clock?: () => number;
}

export interface DependencyFailure {
  dependency: string;
  reason: string;
}

export interface ReadinessReport {
  ready: boolean;
  /** Each failing dependency once, with why. */
  failing: DependencyFailure[];
  /** Every dependency checked, and whether it answered. */
  dependencies: { dependency: string; up: boolean }[];
}

interface Outcome {
  up: boolean;
  reason: string;
  at: number;
}

interface Entry {
  app: string;
  check: ReadinessCheck;
  last: Outcome | null;
  /** The check still running, if any: never two at once, so a hung server holds one connection. */
  running: Promise<Outcome> | null;
}

/**
 * The readiness of a process: its apps' dependency checks, each bounded by a timeout and its
 * answer cached for a few seconds, so a probe is cheap and answers within the timeout even when
 * a server hangs. A check still running when the next probe comes is waited on, not started
 * again.
 */
export class Readiness {
  private readonly entries = new Set<Entry>();
  private readonly timeoutMs: number;
  private readonly cacheMs: number;
  private readonly clock: () => number;

  constructor(private readonly options: ReadinessOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 800;
    this.cacheMs = options.cacheMs ?? 2_000;
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Adds an app's checks; the returned function removes them (the app stopped) and waits, at most
   * the timeout, for those still running, so the app does not close a client a check is using.
   */
  add(app: string, checks: readonly ReadinessCheck[]): () => Promise<void> {
    const added = checks.map((check): Entry => ({ app, check, last: null, running: null }));
    for (const entry of added) this.entries.add(entry);
    return async () => {
      for (const entry of added) this.entries.delete(entry);
      const running = added.flatMap((entry) => (entry.running ? [entry.running] : []));
      await settleWithin(running, this.timeoutMs);
    };
  }

  async report(): Promise<ReadinessReport> {
    const outcomes = await Promise.all(
      [...this.entries].map(async (entry) => ({
        dependency: entry.check.dependency,
        outcome: await this.outcomeOf(entry),
      })),
    );
    const failing = new Map<string, DependencyFailure>();
    const dependencies = new Map<string, boolean>();
    for (const { dependency, outcome } of outcomes) {
      dependencies.set(dependency, (dependencies.get(dependency) ?? true) && outcome.up);
      if (!outcome.up && !failing.has(dependency)) {
        failing.set(dependency, { dependency, reason: outcome.reason });
      }
    }
    return {
      ready: failing.size === 0,
      failing: [...failing.values()],
      dependencies: [...dependencies].map(([dependency, up]) => ({ dependency, up })),
    };
  }

  private async outcomeOf(entry: Entry): Promise<Outcome> {
    const now = this.clock();
    const cacheMs = entry.check.cacheMs ?? this.cacheMs;
    if (entry.last && now - entry.last.at < cacheMs) return entry.last;
    entry.running ??= this.run(entry);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<Outcome>((resolve) => {
      timer = setTimeout(
        () => resolve({ up: false, reason: `timed out after ${this.timeoutMs} ms`, at: now }),
        this.timeoutMs,
      );
    });
    const outcome = await Promise.race([entry.running, timedOut]);
    clearTimeout(timer);
    if (outcome.reason.startsWith('timed out')) this.record(entry, outcome);
    return outcome;
  }

  private async run(entry: Entry): Promise<Outcome> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let outcome: Outcome;
    try {
      await entry.check.check(signal);
      outcome = { up: true, reason: '', at: this.clock() };
    } catch (error) {
      outcome = { up: false, reason: reasonOf(error, signal, this.timeoutMs), at: this.clock() };
    }
    entry.running = null;
    this.record(entry, outcome);
    return outcome;
  }

  private record(entry: Entry, outcome: Outcome): void {
    // A late answer of a check that already timed out still updates the cache.
    if (entry.last && entry.last.at > outcome.at) return;
    entry.last = outcome;
    this.options.onResult?.(entry.app, entry.check.dependency, outcome.up);
  }
}

function reasonOf(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `timed out after ${timeoutMs} ms`;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const text =
    typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  // A reason is shown to whoever probes: short, one line, no stack, no credentials of a URL.
  const line = text.split('\n')[0].replace(/\/\/[^/\s@]+@/g, '//[redacted]@');
  return line.slice(0, 200) || 'failed';
}
