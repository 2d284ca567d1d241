import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';

export interface RunningApp {
  /** Where an HTTP app listens, once started. */
  url?: string;
  /** Where its ops listener (/metrics, /livez, /readyz) listens, when it has one of its own. */
  opsUrl?: string;
  stop(): Promise<void>;
}

/** How long a stop may take before the process exits anyway (a Kubernetes grace period is 30 s). */
export const STOP_DEADLINE_MS = 15_000;
/**
 * Then the process exits with its exit handlers (which remove data folder locks)... The margins
 * cover a busy machine: the signal handler itself can start late, and exiting takes time.
 */
const EXIT_AFTER_MS = STOP_DEADLINE_MS - 5_000;
/** ...or, if its thread is still busy, a thread of its own kills it. */
const KILL_AFTER_MS = STOP_DEADLINE_MS - 3_000;

/**
 * The last resort, on a thread of its own: a long synchronous step on the main thread (creating
 * the embedded database takes seconds of CPU on a busy machine) delays every timer there.
 */
function killAfter(ms: number): void {
  const watchdog = new Worker(`setTimeout(() => process.kill(${process.pid}, 'SIGKILL'), ${ms});`, {
    eval: true,
  });
  watchdog.unref();
}

/**
 * Keeps a started app alive until SIGINT/SIGTERM, then stops it once and exits. The signals are
 * handled from the first moment, so a signal during start-up stops the app as soon as it is up
 * instead of killing it halfway through writing its data. Whatever hangs or blocks, the process
 * is gone within STOP_DEADLINE_MS of the first signal, which frees its ports and its data folder.
 */
export function runUntilSignal(
  name: string,
  start: () => Promise<RunningApp>,
  logger: Logger,
): void {
  let stopping = false;
  const started = start();
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${name} stopping`);
    killAfter(KILL_AFTER_MS);
    const deadline = setTimeout(() => {
      logger.error(`${name} did not stop within ${EXIT_AFTER_MS / 1000} s; exiting anyway`);
      process.exit(1);
    }, EXIT_AFTER_MS);
    deadline.unref();
    started
      .then((app) => app.stop())
      .then(() => {
        logger.info(`${name} stopped`);
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, `${name} did not stop cleanly`);
        process.exit(1);
      });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  started.catch((error: unknown) => {
    // Configuration errors already name the variable; print them without a stack.
    const message = error instanceof Error ? error.message : String(error);
    logger.fatal({ err: error }, `${name} failed to start`);
    console.error(`${name} failed to start: ${message}`);
    process.exit(1);
  });
}
