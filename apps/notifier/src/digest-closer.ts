import type { Logger } from '@vigil/config';
import type { DigestGroup, NewDelivery, SqlDigestStore } from '@vigil/control-plane';

export interface DigestCloserOptions {
  digests: SqlDigestStore;
  graceMs: number;
  intervalMs: number;
  render: (group: DigestGroup) => NewDelivery;
  /** Called when digests were created, so the worker pool sends them at once. */
  onClosed: () => void;
  logger: Logger;
  clock?: () => number;
}

/** Batch windows closed per transaction: every recipient's digest of each. */
const MAX_WINDOWS_PER_TURN = 20;

/**
 * Every few seconds, turns the Batch windows that ended more than `graceMs` ago into one digest
 * email per recipient. The grace leaves time for entries of the window still in flight.
 */
export class DigestCloser {
  private timer: NodeJS.Timeout | null = null;
  private turn: Promise<void> = Promise.resolve();

  constructor(private readonly options: DigestCloserOptions) {}

  start(): void {
    this.timer = setInterval(() => {
      this.turn = this.turn.then(() => this.closeDue());
    }, this.options.intervalMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.turn;
  }

  /** Closes what is due now; returns how many digests were created. */
  async closeDue(): Promise<void> {
    const { digests, graceMs, render, onClosed, logger } = this.options;
    const now = (this.options.clock ?? Date.now)();
    try {
      let created: number;
      do {
        created = await digests.closeDigests(now - graceMs, MAX_WINDOWS_PER_TURN, render);
        if (created > 0) {
          logger.info({ digests: created }, 'digests closed');
          onClosed();
        }
      } while (created > 0);
    } catch (error) {
      logger.error({ err: error }, 'could not close digests');
    }
  }
}
