import type { MetricCatalogue } from './metric-catalogue';

/** The API error codes of an event query refused before the read model: a bounded set. */
export const QUERY_ERROR_CODES = ['invalid_query', 'invalid_request'] as const;
export type QueryErrorCode = (typeof QUERY_ERROR_CODES)[number];

/** Event queries the API refused as written (a query that does not parse, a malformed body). */
export class QueryInstruments {
  constructor(
    private readonly catalogue: MetricCatalogue,
    private readonly app: string,
    private readonly enabled: boolean,
  ) {
    if (!enabled) return;
    for (const code of QUERY_ERROR_CODES) catalogue.queryCompileErrors.inc({ app, code }, 0);
  }

  refused(code: QueryErrorCode): void {
    if (!this.enabled) return;
    this.catalogue.queryCompileErrors.inc({ app: this.app, code });
  }
}
