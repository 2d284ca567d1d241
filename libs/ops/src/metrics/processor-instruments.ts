import type { LoopHeartbeat } from '../liveness/loop-heartbeat';
import { ConsumerInstruments } from './consumer-instruments';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_MODES,
  type MetricCatalogue,
  type NotificationChannelLabel,
  type NotificationModeLabel,
} from './metric-catalogue';

const STEPS = ['decode', 'process', 'commit'] as const;

/** The stream processor's loop: a consumer that also times its steps and counts its decisions. */
export class ProcessorInstruments extends ConsumerInstruments {
  constructor(
    catalogue: MetricCatalogue,
    app: string,
    group: string,
    heartbeat: LoopHeartbeat,
    enabled: boolean,
  ) {
    super(catalogue, app, group, heartbeat, enabled);
    if (!enabled) return;
    catalogue.processorBatches.inc({ app }, 0);
    catalogue.processorTransactionsAborted.inc({ app }, 0);
    catalogue.processorStateRestored.inc({ app }, 0);
    for (const step of STEPS) catalogue.processorBatchDuration.zero({ app, step });
    for (const mode of NOTIFICATION_MODES) {
      for (const channel of NOTIFICATION_CHANNELS) {
        catalogue.processorDecisions.inc({ app, mode, channel }, 0);
      }
    }
  }

  batchCommitted(steps: { decodeMs: number; processMs: number; commitMs: number }): void {
    if (!this.enabled) return;
    const { app } = this;
    this.catalogue.processorBatches.inc({ app });
    const duration = this.catalogue.processorBatchDuration;
    duration.observe({ app, step: 'decode' }, steps.decodeMs / 1000);
    duration.observe({ app, step: 'process' }, steps.processMs / 1000);
    duration.observe({ app, step: 'commit' }, steps.commitMs / 1000);
  }

  transactionAborted(): void {
    if (!this.enabled) return;
    this.catalogue.processorTransactionsAborted.inc({ app: this.app });
  }

  decided(mode: NotificationModeLabel, channel: NotificationChannelLabel, count = 1): void {
    if (!this.enabled || count === 0) return;
    this.catalogue.processorDecisions.inc({ app: this.app, mode, channel }, count);
  }

  stateRestored(records: number): void {
    if (!this.enabled) return;
    this.catalogue.processorStateRestored.inc({ app: this.app }, records);
  }

  /** Reads the detections held in memory at every scrape; returns how to stop. */
  trackDetectionsInMemory(count: () => number): () => void {
    if (!this.enabled) return () => undefined;
    return this.catalogue.sample(this.catalogue.processorDetectionsInMemory, this.app, count);
  }
}
