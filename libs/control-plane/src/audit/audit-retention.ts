import { silentLogger, type ControlPlaneLogger } from '../sql/sql-client';
import { type AuditLog } from './audit-log';

export interface AuditRetentionOptions {
  readonly log: AuditLog;
  /** AUDIT_RETENTION_DAYS. */
  readonly retentionDays: number;
  /** Between purges; a day by default. */
  readonly intervalMs?: number;
  /** Before the first purge after start, so start-up stays quick. */
  readonly firstDelayMs?: number;
  readonly logger?: ControlPlaneLogger;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Purges audit events older than the retention period, shortly after start and then daily. A
 * purge is idempotent, so instances purging at once only repeat each other's work; a failed
 * purge is logged and retried at the next interval.
 */
export class AuditRetention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(private readonly options: AuditRetentionOptions) {}

  start(): void {
    const interval = this.options.intervalMs ?? DAY_MS;
    const schedule = (delay: number) => {
      this.timer = setTimeout(() => {
        this.running = this.purgeOnce().finally(() => {
          this.running = undefined;
          if (this.timer !== undefined) schedule(interval);
        });
      }, delay);
      this.timer.unref();
    };
    schedule(this.options.firstDelayMs ?? 60_000);
  }

  /** Purges now; returns how many events were removed (0 after a logged failure). */
  async purgeOnce(): Promise<number> {
    const logger = this.options.logger ?? silentLogger;
    try {
      const removed = await this.options.log.purge(this.options.retentionDays);
      if (removed > 0) {
        logger.info({ removed, retentionDays: this.options.retentionDays }, 'purged audit events');
      }
      return removed;
    } catch (error) {
      logger.warn({ err: error }, 'audit retention purge failed; retrying at the next interval');
      return 0;
    }
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
