import {
  ATTEMPT_OUTCOMES,
  DELIVERY_STATUSES,
  NOTIFICATION_CHANNELS,
  type AttemptOutcome,
  type DeliveryStatusLabel,
  type MetricCatalogue,
  type NotificationChannelLabel,
} from './metric-catalogue';

/**
 * The notifier's deliveries: attempts and their latency, final outcomes, the backlog. No label
 * names a provider or a recipient: enrolled providers are not bounded by configuration.
 */
export class NotifierInstruments {
  constructor(
    private readonly catalogue: MetricCatalogue,
    private readonly app: string,
    private readonly enabled: boolean,
  ) {
    if (!enabled) return;
    catalogue.notifierDigestsSent.inc({ app }, 0);
    for (const channel of NOTIFICATION_CHANNELS) {
      catalogue.notifierAttemptDuration.zero({ app, channel });
      for (const status of DELIVERY_STATUSES) {
        catalogue.notifierDeliveries.inc({ app, channel, status }, 0);
      }
      for (const outcome of ATTEMPT_OUTCOMES) {
        catalogue.notifierAttempts.inc({ app, channel, outcome }, 0);
      }
    }
  }

  attempted(channel: NotificationChannelLabel, outcome: AttemptOutcome, seconds: number): void {
    if (!this.enabled) return;
    this.catalogue.notifierAttempts.inc({ app: this.app, channel, outcome });
    this.catalogue.notifierAttemptDuration.observe({ app: this.app, channel }, seconds);
  }

  finished(channel: NotificationChannelLabel, status: DeliveryStatusLabel): void {
    if (!this.enabled) return;
    this.catalogue.notifierDeliveries.inc({ app: this.app, channel, status });
  }

  /** Deliveries recorded as skipped: by their provider's filter, or the provider disabled. */
  skipped(count: number): void {
    if (!this.enabled || count === 0) return;
    this.catalogue.notifierDeliveries.inc(
      { app: this.app, channel: 'webhook', status: 'skipped' },
      count,
    );
  }

  digestSent(): void {
    if (!this.enabled) return;
    this.catalogue.notifierDigestsSent.inc({ app: this.app });
  }

  /** The backlog in the database, as last counted. */
  backlog(counts: { due: number; dead: number }): void {
    if (!this.enabled) return;
    this.catalogue.notifierDeliveriesDue.set({ app: this.app }, counts.due);
    this.catalogue.notifierDeadDeliveries.set({ app: this.app }, counts.dead);
  }

  /** How many providers are disabled, as last counted. */
  providersDisabled(count: number): void {
    if (!this.enabled) return;
    this.catalogue.notifierProvidersDisabled.set({ app: this.app }, count);
  }

  /** Reads the deliveries being sent at every scrape; returns how to stop. */
  trackInFlight(count: () => number): () => void {
    if (!this.enabled) return () => undefined;
    return this.catalogue.sample(this.catalogue.notifierDeliveriesInFlight, this.app, count);
  }
}
