import type { LoopHeartbeat } from '../liveness/loop-heartbeat';
import {
  DEAD_LETTER_REASONS,
  type DeadLetterReasonLabel,
  type MetricCatalogue,
} from './metric-catalogue';

/** A partition's lag as the log reports it. */
export interface PartitionLagSample {
  topic: string;
  partition: number;
  lag: number;
}

/**
 * What one consumer group's loop reports, in metrics (records, dead letters, lag per partition)
 * and in liveness (its heartbeat). Its methods are the message log's ConsumerObserver port.
 */
export class ConsumerInstruments {
  private readonly seen = new Set<string>();

  constructor(
    protected readonly catalogue: MetricCatalogue,
    protected readonly app: string,
    protected readonly group: string,
    private readonly heartbeat: LoopHeartbeat,
    protected readonly enabled: boolean,
  ) {}

  polled(): void {
    this.heartbeat.beat();
  }

  batchStarted(): () => void {
    return this.heartbeat.stepStarted();
  }

  consumed(topic: string, partition: number, records: number): void {
    if (!this.enabled) return;
    const labels = { app: this.app, group: this.group, topic, partition: String(partition) };
    this.firstSight(labels);
    this.catalogue.consumerRecords.inc(labels, records);
  }

  deadLettered(
    topic: string,
    partition: number,
    reason: DeadLetterReasonLabel,
    records: number,
  ): void {
    if (!this.enabled) return;
    const labels = { app: this.app, group: this.group, topic, partition: String(partition) };
    this.firstSight(labels);
    this.catalogue.consumerDeadLetters.inc({ ...labels, reason }, records);
  }

  /** The group's lag on every partition of its topics, as last measured. */
  lag(samples: readonly PartitionLagSample[]): void {
    if (!this.enabled) return;
    for (const { topic, partition, lag } of samples) {
      this.catalogue.consumerLag.set(
        { app: this.app, group: this.group, topic, partition: String(partition) },
        lag,
      );
    }
  }

  /**
   * A partition's counters start at zero the first time it is met, so the first dead letter is an
   * increase Prometheus sees rather than a series born at 1.
   */
  private firstSight(labels: { app: string; group: string; topic: string; partition: string }) {
    const key = `${labels.topic}#${labels.partition}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.catalogue.consumerRecords.inc(labels, 0);
    for (const reason of DEAD_LETTER_REASONS) {
      this.catalogue.consumerDeadLetters.inc({ ...labels, reason }, 0);
    }
  }
}
