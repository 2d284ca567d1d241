import type { Logger } from '@vigil/config';
import {
  SqlFallbackQueue,
  insertDeliveries,
  type FallbackDestinationService,
  type SqlClient,
  type WebhookProviderService,
} from '@vigil/control-plane';
import { planFallbackDeliveries } from './plan-fallback-deliveries';

export interface FallbackSweeperOptions {
  sql: SqlClient;
  fallbacks: FallbackDestinationService;
  providers: WebhookProviderService;
  appUrl: string;
  /** How often to look for dead deliveries when nothing wakes the sweeper. */
  intervalMs: number;
  /** Called when fallback deliveries were created, so the worker pool sends them at once. */
  onCreated: () => void;
  logger: Logger;
}

/** Dead deliveries handled per transaction. */
const BATCH = 100;

/**
 * Tells each dead delivery's fallback destination of it, once: takes the dead deliveries not
 * handled yet (locked, so notifiers share the work), creates their fallback deliveries and marks
 * them handled in one transaction. A dead delivery with no fallback destination is marked too:
 * a destination set later is for deliveries that die from then on. Woken by the worker pool
 * when a delivery dies; polls as a safety net (a crash between death and sweep loses nothing).
 */
export class FallbackSweeper {
  private timer: NodeJS.Timeout | null = null;
  private turn: Promise<void> = Promise.resolve();
  private pending = false;

  constructor(private readonly options: FallbackSweeperOptions) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.options.intervalMs);
  }

  /** Sweeps soon (one turn at a time; wakes during a turn fold into one more turn). */
  wake(): void {
    if (this.pending || this.timer === null) return;
    this.pending = true;
    this.turn = this.turn.then(async () => {
      this.pending = false;
      await this.sweep();
    });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.turn;
  }

  /** Handles every dead delivery not handled yet; returns how many fallback deliveries it created. */
  async sweep(): Promise<number> {
    let total = 0;
    try {
      for (;;) {
        const { handled, created } = await this.sweepBatch();
        total += created;
        if (handled < BATCH) break;
      }
    } catch (error) {
      this.options.logger.error({ err: error }, 'could not create fallback deliveries');
    }
    if (total > 0) this.options.onCreated();
    return total;
  }

  private async sweepBatch(): Promise<{ handled: number; created: number }> {
    const { sql, fallbacks, providers, appUrl, logger } = this.options;
    const dead = await new SqlFallbackQueue(sql).peek(BATCH);
    if (dead.length === 0) return { handled: 0, created: 0 };
    const { global, bySubject } = await fallbacks.resolve(dead.map((d) => d.subjectId));
    const destinationOf = (subjectId: string | null) =>
      (subjectId === null ? undefined : bySubject.get(subjectId)) ?? global;
    const providerIds = new Set<string>();
    for (const d of dead) {
      if (d.channel === 'webhook') providerIds.add(d.target);
      const providerId = destinationOf(d.subjectId)?.providerId;
      if (providerId) providerIds.add(providerId);
    }
    const targets = await providers.targets([...providerIds]);
    const created = await sql.transaction(async (tx) => {
      const queue = new SqlFallbackQueue(tx);
      // Another notifier may have handled some since the peek: only those still due go on.
      const taken = await queue.take(dead.map((d) => d.id));
      const planned = dead
        .filter((d) => taken.has(d.id.toLowerCase()))
        .flatMap((d) => planFallbackDeliveries(d, destinationOf(d.subjectId), targets, appUrl));
      const inserted = await insertDeliveries(tx, planned);
      await queue.markHandled([...taken]);
      return inserted.created;
    });
    if (created > 0) {
      logger.info({ dead: dead.length, fallbacks: created }, 'fallback deliveries created');
    }
    return { handled: dead.length, created };
  }
}
