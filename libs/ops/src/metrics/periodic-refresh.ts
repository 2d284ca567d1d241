import type { Logger } from '@vigil/config';

export interface PeriodicRefreshOptions {
  readonly name: string;
  readonly intervalMs: number;
  /** The task's signal aborts after this long; a task that ignores it delays the next run. */
  readonly timeoutMs: number;
  readonly task: (signal: AbortSignal) => Promise<void>;
  readonly logger: Logger;
}

/**
 * Refreshes gauges that need I/O (consumer lag, deliveries due) in the background, so a scrape
 * serves the last values and never waits on a server. Runs never overlap: while a server hangs,
 * at most one run waits on it (the gauges then keep their last values; vigil_dependency_up and
 * /readyz say which server is down).
 */
export class PeriodicRefresh {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private failing = false;

  constructor(private readonly options: PeriodicRefreshOptions) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.runOnce(), this.options.intervalMs);
    this.timer.unref();
    this.runOnce();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private runOnce(): void {
    if (this.running) return;
    const { name, timeoutMs, task, logger } = this.options;
    const signal = AbortSignal.timeout(timeoutMs);
    this.running = task(signal)
      .then(
        () => {
          if (this.failing) logger.info({ refresh: name }, 'metrics refresh recovered');
          this.failing = false;
        },
        (error: unknown) => {
          // One line per failing streak: the readiness probe says what is down.
          if (!this.failing) logger.warn({ err: error, refresh: name }, 'metrics refresh failed');
          this.failing = true;
        },
      )
      .finally(() => {
        this.running = null;
      });
  }
}
