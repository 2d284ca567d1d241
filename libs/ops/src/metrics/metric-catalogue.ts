import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Reason classes of a dead letter: a bounded set, never the reason's text. */
export const DEAD_LETTER_REASONS = ['decode', 'schema', 'validation', 'rejected'] as const;
export type DeadLetterReasonLabel = (typeof DEAD_LETTER_REASONS)[number];

export const NOTIFICATION_CHANNELS = ['webhook', 'email'] as const;
export const NOTIFICATION_MODES = ['immediate', 'batch', 'threshold'] as const;
export const DELIVERY_STATUSES = ['delivered', 'dead', 'skipped'] as const;
export const ATTEMPT_OUTCOMES = [
  'success',
  'http_error',
  'network_error',
  'timeout',
  'refused',
] as const;
export const SIGN_IN_OUTCOMES = ['success', 'failure', 'throttled'] as const;

export type NotificationChannelLabel = (typeof NOTIFICATION_CHANNELS)[number];
export type NotificationModeLabel = (typeof NOTIFICATION_MODES)[number];
export type DeliveryStatusLabel = (typeof DELIVERY_STATUSES)[number];
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];
export type SignInOutcome = (typeof SIGN_IN_OUTCOMES)[number];

const SECONDS_FAST = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const SECONDS_BATCH = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SECONDS_ATTEMPT = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Every Vigil metric, defined once per registry (docs/operating.md says what each means).
 * `app` is a label of every series, so the all-in-one process exposes each app's series once in
 * its one registry. Labels are bounded sets: never an id, an address or a token.
 */
export class MetricCatalogue {
  private static readonly byRegistry = new WeakMap<Registry, MetricCatalogue>();

  /** The registry's catalogue: each metric is defined once per registry. */
  static of(registry: Registry): MetricCatalogue {
    let catalogue = MetricCatalogue.byRegistry.get(registry);
    if (!catalogue) {
      catalogue = new MetricCatalogue(registry);
      MetricCatalogue.byRegistry.set(registry, catalogue);
    }
    return catalogue;
  }

  readonly consumerLag: Gauge<'app' | 'group' | 'topic' | 'partition'>;
  readonly consumerRecords: Counter<'app' | 'group' | 'topic' | 'partition'>;
  readonly consumerDeadLetters: Counter<'app' | 'group' | 'topic' | 'partition' | 'reason'>;

  readonly processorBatches: Counter<'app'>;
  readonly processorBatchDuration: Histogram<'app' | 'step'>;
  readonly processorTransactionsAborted: Counter<'app'>;
  readonly processorDecisions: Counter<'app' | 'mode' | 'channel'>;
  readonly processorStateRestored: Counter<'app'>;
  readonly processorDetectionsInMemory: Gauge<'app'>;

  readonly notifierDeliveries: Counter<'app' | 'channel' | 'status'>;
  readonly notifierAttempts: Counter<'app' | 'channel' | 'outcome'>;
  readonly notifierAttemptDuration: Histogram<'app' | 'channel'>;
  readonly notifierDeliveriesDue: Gauge<'app'>;
  readonly notifierDeliveriesInFlight: Gauge<'app'>;
  readonly notifierDeadDeliveries: Gauge<'app'>;
  readonly notifierProvidersDisabled: Gauge<'app'>;
  readonly notifierDigestsSent: Counter<'app'>;

  readonly httpRequestDuration: Histogram<'app' | 'route' | 'method' | 'status'>;
  readonly httpRateLimited: Counter<'app' | 'route'>;
  readonly ingestRecords: Counter<'app' | 'kind' | 'outcome'>;
  readonly queryCompileErrors: Counter<'app' | 'code'>;
  readonly webSignIns: Counter<'app' | 'outcome'>;

  readonly dependencyUp: Gauge<'app' | 'dependency'>;

  /** Gauges read from memory at scrape time, per app: they never wait on a server. */
  private readonly samplers = new Map<Gauge<'app'>, Map<string, () => number>>();

  private constructor(private readonly registry: Registry) {
    const labels = <L extends string>(...names: L[]) => ['app', ...names] as ('app' | L)[];
    this.consumerLag = this.gauge(
      'vigil_consumer_lag_records',
      'Records of a partition not yet consumed by the group: end offset less committed offset',
      labels('group', 'topic', 'partition'),
    );
    this.consumerRecords = this.counter(
      'vigil_consumer_records_total',
      'Records consumed and committed by the group, dead-lettered ones included',
      labels('group', 'topic', 'partition'),
    );
    this.consumerDeadLetters = this.counter(
      'vigil_consumer_dead_letters_total',
      'Records sent to the dead-letter topic, by reason class (decode, schema, validation, rejected)',
      labels('group', 'topic', 'partition', 'reason'),
    );

    this.processorBatches = this.counter(
      'vigil_processor_batches_total',
      'Input micro-batches the stream processor committed',
      labels(),
    );
    this.processorBatchDuration = this.histogram(
      'vigil_processor_batch_duration_seconds',
      'Time a committed micro-batch spent in each step (decode, process, commit)',
      labels('step'),
      SECONDS_BATCH,
    );
    this.processorTransactionsAborted = this.counter(
      'vigil_processor_transactions_aborted_total',
      'Log transactions of the stream processor that failed and were aborted',
      labels(),
    );
    this.processorDecisions = this.counter(
      'vigil_processor_decisions_total',
      'Notification decisions committed, by frequency mode and channel',
      labels('mode', 'channel'),
    );
    this.processorStateRestored = this.counter(
      'vigil_processor_state_records_restored_total',
      'State records read back from the changelog when partitions were acquired',
      labels(),
    );
    this.processorDetectionsInMemory = this.sampledGauge(
      'vigil_processor_detections_in_memory',
      'Detection states the stream processor holds in memory',
    );

    this.notifierDeliveries = this.counter(
      'vigil_notifier_deliveries_total',
      "Deliveries that reached a final status: delivered, dead after their last attempt, or skipped by the provider's filter",
      labels('channel', 'status'),
    );
    this.notifierAttempts = this.counter(
      'vigil_notifier_attempts_total',
      'Delivery attempts by outcome (success, http_error, network_error, timeout, refused)',
      labels('channel', 'outcome'),
    );
    this.notifierAttemptDuration = this.histogram(
      'vigil_notifier_attempt_duration_seconds',
      'Time from sending a delivery attempt to its answer',
      labels('channel'),
      SECONDS_ATTEMPT,
    );
    this.notifierDeliveriesDue = this.gauge(
      'vigil_notifier_deliveries_due',
      'Deliveries waiting to be sent whose time has come (from the database, refreshed in the background)',
      labels(),
    );
    this.notifierDeliveriesInFlight = this.sampledGauge(
      'vigil_notifier_deliveries_in_flight',
      'Deliveries this notifier is sending right now',
    );
    this.notifierDeadDeliveries = this.gauge(
      'vigil_notifier_dead_deliveries',
      'Deliveries currently dead: retries exhausted and not resent (from the database, refreshed in the background)',
      labels(),
    );
    this.notifierProvidersDisabled = this.gauge(
      'vigil_notifier_providers_disabled',
      'Webhook providers disabled now, by their health rules or an admin: their notifications are skipped (from the database, refreshed in the background)',
      labels(),
    );
    this.notifierDigestsSent = this.counter(
      'vigil_notifier_digests_sent_total',
      'Batch digest emails delivered',
      labels(),
    );

    this.httpRequestDuration = this.histogram(
      'vigil_http_request_duration_seconds',
      'HTTP requests by matched route pattern, method and status, and how long they took',
      labels('route', 'method', 'status'),
      SECONDS_FAST,
    );
    this.httpRateLimited = this.counter(
      'vigil_http_rate_limited_total',
      'Requests refused with 429 because a rate limit was spent',
      labels('route'),
    );
    this.ingestRecords = this.counter(
      'vigil_ingest_records_total',
      'Records received by the ingest API, accepted or rejected',
      labels('kind', 'outcome'),
    );
    this.queryCompileErrors = this.counter(
      'vigil_query_compile_errors_total',
      'Event queries refused before reaching the read model, by API error code',
      labels('code'),
    );
    this.webSignIns = this.counter(
      'vigil_web_sign_ins_total',
      'Sign-in attempts in the web application by outcome (success, failure, throttled)',
      labels('outcome'),
    );
    this.dependencyUp = this.gauge(
      'vigil_dependency_up',
      'Whether the last readiness check of a dependency succeeded (1) or not (0)',
      labels('dependency'),
    );
  }

  /** Reads `source` into the app's series of a sampled gauge at every scrape. */
  sample(gauge: Gauge<'app'>, app: string, source: () => number): () => void {
    const sources = this.samplers.get(gauge)!;
    sources.set(app, source);
    return () => {
      if (sources.get(app) === source) {
        sources.delete(app);
        gauge.remove({ app });
      }
    };
  }

  private counter<L extends string>(name: string, help: string, labelNames: L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  private gauge<L extends string>(name: string, help: string, labelNames: L[]): Gauge<L> {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }

  private histogram<L extends string>(
    name: string,
    help: string,
    labelNames: L[],
    buckets: number[],
  ): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }

  private sampledGauge(name: string, help: string): Gauge<'app'> {
    const sources = new Map<string, () => number>();
    const gauge = new Gauge({
      name,
      help,
      labelNames: ['app'],
      registers: [this.registry],
      collect() {
        for (const [app, source] of sources) this.set({ app }, source());
      },
    });
    this.samplers.set(gauge, sources);
    return gauge;
  }
}
