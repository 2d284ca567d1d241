import { DEFAULT_OPS_PORTS, type Logger, type OpsAppName, type SectionValues } from '@vigil/config';
import {
  observeRequests,
  type NodeRequestHandler,
  type ObserveRequestsOptions,
} from './http/observe-requests';
import type { LoopHeartbeat } from './liveness/loop-heartbeat';
import { ConsumerInstruments } from './metrics/consumer-instruments';
import { HttpInstruments } from './metrics/http-instruments';
import { IngestInstruments } from './metrics/ingest-instruments';
import { NotifierInstruments } from './metrics/notifier-instruments';
import { PeriodicRefresh } from './metrics/periodic-refresh';
import { ProcessorInstruments } from './metrics/processor-instruments';
import { QueryInstruments } from './metrics/query-instruments';
import { SignInInstruments } from './metrics/sign-in-instruments';
import { OpsRuntime } from './ops-runtime';
import type { ReadinessCheck } from './readiness/readiness-check';

/** What a process starting several apps passes each start function: its one ops runtime. */
export interface AppStartOptions {
  readonly ops?: OpsRuntime;
}

/**
 * One app's share of the ops runtime: its instruments (every series labelled with the app), its
 * loops, its dependencies and its background refreshes, all released by `stop()`. Created
 * first thing in an app's start; `start()` once the app runs opens the ops listener of an app
 * on its own (the all-in-one process opens its one listener itself).
 */
export class AppOps {
  private readonly releases: (() => void | Promise<void>)[] = [];
  private readonly refreshes: PeriodicRefresh[] = [];
  private http: HttpInstruments | null = null;
  private started = false;

  private constructor(
    readonly app: OpsAppName,
    private readonly runtime: OpsRuntime,
    private readonly owned: { host: string; port: number } | null,
    private readonly logger: Logger,
  ) {}

  /**
   * The ops of `app`: on the all-in-one process's `shared` runtime, or on a runtime of its own
   * configured by the `ops` section (OPS_PORT defaults to the app's port in DEFAULT_OPS_PORTS).
   */
  static create(
    app: OpsAppName,
    config: SectionValues<'ops'>,
    logger: Logger,
    shared?: OpsRuntime,
  ): AppOps {
    if (shared) return new AppOps(app, shared, null, logger);
    const runtime = new OpsRuntime({
      metrics: config.VIGIL_METRICS === 'on',
      processApp: app,
      liveness: { stallMs: config.OPS_LOOP_STALL_MS, stepMaxMs: config.OPS_STEP_MAX_MS },
      logger,
    });
    const port = config.OPS_PORT ?? DEFAULT_OPS_PORTS[app];
    return new AppOps(app, runtime, { host: config.OPS_HOST, port }, logger);
  }

  get metricsEnabled(): boolean {
    return this.runtime.metricsEnabled;
  }

  /** Starts the background refreshes, and the listener of an app on its own (its address). */
  async start(): Promise<string | undefined> {
    this.started = true;
    for (const refresh of this.refreshes) refresh.start();
    if (!this.owned) return undefined;
    return this.runtime.listen(this.owned.host, this.owned.port);
  }

  /** Stops the listener (of an app on its own) first, so probes fail while the app stops. */
  async stop(): Promise<void> {
    if (this.owned) await this.runtime.close();
    await Promise.all(this.refreshes.map((refresh) => refresh.stop()));
    for (const release of this.releases.splice(0).reverse()) await release();
  }

  /** What the app needs right now, for /readyz and vigil_dependency_up. */
  dependsOn(checks: readonly ReadinessCheck[]): void {
    this.releases.push(this.runtime.readiness.add(this.app, checks));
  }

  /** A loop /livez watches until the app stops. */
  loop(name: string): LoopHeartbeat {
    const heartbeat = this.runtime.liveness.watch(this.app, name);
    this.releases.push(() => this.runtime.liveness.forget(heartbeat));
    return heartbeat;
  }

  consumer(group: string): ConsumerInstruments {
    const { catalogue } = this.runtime;
    return new ConsumerInstruments(
      catalogue,
      this.app,
      group,
      this.loop(`consumer ${group}`),
      this.metricsEnabled,
    );
  }

  processor(group: string): ProcessorInstruments {
    const { catalogue } = this.runtime;
    return new ProcessorInstruments(
      catalogue,
      this.app,
      group,
      this.loop(`processor ${group}`),
      this.metricsEnabled,
    );
  }

  notifier(): NotifierInstruments {
    return new NotifierInstruments(this.runtime.catalogue, this.app, this.metricsEnabled);
  }

  ingest(): IngestInstruments {
    return new IngestInstruments(this.runtime.catalogue, this.app, this.metricsEnabled);
  }

  queries(): QueryInstruments {
    return new QueryInstruments(this.runtime.catalogue, this.app, this.metricsEnabled);
  }

  signIns(): SignInInstruments {
    return new SignInInstruments(this.runtime.catalogue, this.app, this.metricsEnabled);
  }

  /** The request log line and request metrics, as Express middleware. */
  observeRequests(options: Omit<ObserveRequestsOptions, 'http' | 'logger'>): NodeRequestHandler[] {
    this.http ??= new HttpInstruments(this.runtime.catalogue, this.app, this.metricsEnabled);
    return observeRequests({ ...options, http: this.http, logger: this.logger });
  }

  /**
   * Refreshes gauges that need I/O every `intervalMs` in the background (from `start()`), each
   * run given up after `timeoutMs`. Nothing when metrics are off.
   */
  refreshEvery(
    name: string,
    intervalMs: number,
    task: (signal: AbortSignal) => Promise<void>,
    timeoutMs = Math.min(5_000, intervalMs),
  ): void {
    if (!this.metricsEnabled) return;
    const refresh = new PeriodicRefresh({ name, intervalMs, timeoutMs, task, logger: this.logger });
    this.refreshes.push(refresh);
    if (this.started) refresh.start();
  }

  /** Runs `release` when the app stops (an instrument's sampler, say). */
  onStop(release: () => void | Promise<void>): void {
    this.releases.push(release);
  }
}
