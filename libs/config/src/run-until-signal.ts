import type { Logger } from 'pino';

export interface RunningApp {
  /** Where an HTTP app listens, once started. */
  url?: string;
  stop(): Promise<void>;
}

/** Keeps a started app alive until SIGINT/SIGTERM, then stops it once, within a deadline. */
export function runUntilSignal(
  name: string,
  start: () => Promise<RunningApp>,
  logger: Logger,
): void {
  let stopping = false;
  start()
    .then((app) => {
      const shutdown = (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, `${name} stopping`);
        const deadline = setTimeout(() => process.exit(1), 15_000);
        deadline.unref();
        app
          .stop()
          .then(() => process.exit(0))
          .catch((error: unknown) => {
            logger.error({ err: error }, `${name} did not stop cleanly`);
            process.exit(1);
          });
      };
      process.on('SIGINT', () => shutdown('SIGINT'));
      process.on('SIGTERM', () => shutdown('SIGTERM'));
    })
    .catch((error: unknown) => {
      // Configuration errors already name the variable; print them without a stack.
      const message = error instanceof Error ? error.message : String(error);
      logger.fatal({ err: error }, `${name} failed to start`);
      console.error(`${name} failed to start: ${message}`);
      process.exit(1);
    });
}
