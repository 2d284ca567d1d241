import type { Logger } from '@vigil/config';

/**
 * Broker answers that mean "again, in a moment": kafkajs retries them itself and they clear
 * without anyone's help (a previous commit still completing, a rebalance, a coordinator or leader
 * moving). By their message, as kafkajs logs them.
 */
const TRANSIENT_ERRORS: readonly [message: string, type: string][] = [
  [
    'The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing',
    'CONCURRENT_TRANSACTIONS',
  ],
  ['The group is rebalancing, so a rejoin is needed', 'REBALANCE_IN_PROGRESS'],
  ['The group is rebalancing, re-joining', 'REBALANCE_IN_PROGRESS'],
  ['This is not the correct coordinator for this group', 'NOT_COORDINATOR_FOR_GROUP'],
  [
    "The coordinator is loading and hence can't process requests for this group",
    'GROUP_LOAD_IN_PROGRESS',
  ],
  ['The group coordinator is not available', 'GROUP_COORDINATOR_NOT_AVAILABLE'],
  [
    'There is no leader for this topic-partition as we are in the middle of a leadership election',
    'LEADER_NOT_AVAILABLE',
  ],
  ['This server is not the leader for that topic-partition', 'NOT_LEADER_FOR_PARTITION'],
];

/** The error type of a kafkajs log entry reporting a transient broker answer, or null. */
export function transientKafkaError(entry: { message?: unknown; error?: unknown }): string | null {
  const texts = [entry.message, entry.error].filter((t): t is string => typeof t === 'string');
  for (const [message, type] of TRANSIENT_ERRORS) {
    if (texts.some((text) => text.includes(message))) return type;
  }
  return null;
}

/**
 * Counts transient errors instead of logging each one at error level: one warn line per interval
 * says how many of each kafkajs retried ("retried 12 times in the last 10 s"). Anything not
 * retried successfully surfaces on its own, as the operation's own failure.
 */
export class TransientErrorTally {
  private counts = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly logger: Logger,
    private readonly intervalMs = 10_000,
  ) {}

  add(type: string): void {
    this.counts.set(type, (this.counts.get(type) ?? 0) + 1);
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Logs what was counted since the last line, if anything. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.counts.size === 0) return;
    const retried = Object.fromEntries(this.counts);
    const total = [...this.counts.values()].reduce((a, b) => a + b, 0);
    this.counts = new Map();
    this.logger.warn(
      { retried, intervalMs: this.intervalMs },
      `kafka: transient broker errors retried ${total} time${total === 1 ? '' : 's'} in the last ${Math.round(this.intervalMs / 1000)} s`,
    );
  }
}
