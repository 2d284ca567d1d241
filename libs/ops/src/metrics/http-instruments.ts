import type { MetricCatalogue } from './metric-catalogue';

/** Requests an HTTP app answered: duration by route, method and status; 429s by route. */
export class HttpInstruments {
  constructor(
    private readonly catalogue: MetricCatalogue,
    private readonly app: string,
    private readonly enabled: boolean,
  ) {}

  answered(route: string, method: string, status: number, seconds: number): void {
    if (!this.enabled) return;
    const { app } = this;
    this.catalogue.httpRequestDuration.observe(
      { app, route, method, status: String(status) },
      seconds,
    );
    if (status === 429) this.catalogue.httpRateLimited.inc({ app, route });
  }
}
