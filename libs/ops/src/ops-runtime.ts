import { Registry } from 'prom-client';
import type { Logger } from '@vigil/config';
import { startOpsListener, type OpsListener } from './http/ops-listener';
import { Liveness } from './liveness/liveness';
import type { LivenessLimits } from './liveness/loop-heartbeat';
import { MetricCatalogue } from './metrics/metric-catalogue';
import { nodeMetricsText } from './metrics/node-metrics';
import { Readiness } from './readiness/readiness';

export interface OpsRuntimeOptions {
  /** VIGIL_METRICS: off leaves every instrument untouched (the overhead benchmarks use it). */
  metrics: boolean;
  /** The `app` label of the process's Node.js series: its one app, or all-in-one. */
  processApp: string;
  liveness: LivenessLimits;
  logger: Logger;
  /** Per check (default 800 ms). */
  readinessTimeoutMs?: number;
  /** How often every dependency is checked in the background, for vigil_dependency_up (10 s). */
  readinessRefreshMs?: number;
}

/**
 * The ops side of one process: one metrics registry, the liveness of its loops and the readiness
 * of its dependencies, and the listener serving them. The all-in-one process shares one runtime
 * among its apps; an app on its own has its own.
 */
export class OpsRuntime {
  /** The apps' series: labelled by app, defined once. */
  readonly registry = new Registry();
  readonly catalogue: MetricCatalogue;
  readonly liveness: Liveness;
  readonly readiness: Readiness;
  private listener: OpsListener | null = null;
  private refresh: NodeJS.Timeout | null = null;

  constructor(readonly options: OpsRuntimeOptions) {
    this.catalogue = MetricCatalogue.of(this.registry);
    this.liveness = new Liveness(options.liveness);
    this.readiness = new Readiness({
      timeoutMs: options.readinessTimeoutMs,
      onResult: (app, dependency, up) => {
        if (options.metrics) this.catalogue.dependencyUp.set({ app, dependency }, up ? 1 : 0);
      },
    });
  }

  get metricsEnabled(): boolean {
    return this.options.metrics;
  }

  /**
   * What /metrics serves: the Prometheus text of every series of the process, the apps' ones and
   * the process's Node.js ones (labelled with processApp).
   */
  async metrics(): Promise<string> {
    const apps = await this.registry.metrics();
    if (!this.options.metrics) return apps;
    return `${apps}\n${await nodeMetricsText(this.options.processApp)}`;
  }

  /** Serves /metrics, /livez and /readyz; returns the listener's address. */
  async listen(host: string, port: number): Promise<string> {
    if (this.listener) return this.listener.url;
    this.listener = await startOpsListener({
      host,
      port,
      metrics: () => this.metrics(),
      contentType: this.registry.contentType,
      liveness: this.liveness,
      readiness: this.readiness,
    });
    const check = () => {
      this.readiness.report().catch((error: unknown) => {
        this.options.logger.warn({ err: error }, 'readiness check failed to run');
      });
    };
    this.refresh = setInterval(check, this.options.readinessRefreshMs ?? 10_000);
    this.refresh.unref();
    check();
    this.options.logger.info(
      { url: this.listener.url },
      'ops listener on /metrics, /livez, /readyz',
    );
    return this.listener.url;
  }

  async close(): Promise<void> {
    if (this.refresh) clearInterval(this.refresh);
    this.refresh = null;
    await this.listener?.close();
    this.listener = null;
  }
}
