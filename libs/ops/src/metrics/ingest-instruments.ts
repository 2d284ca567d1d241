import type { MetricCatalogue } from './metric-catalogue';

export type IngestKind = 'detection_event' | 'investigation';

/** Records the ingest API received, accepted or rejected, per kind. */
export class IngestInstruments {
  constructor(
    private readonly catalogue: MetricCatalogue,
    private readonly app: string,
    private readonly enabled: boolean,
  ) {
    if (!enabled) return;
    for (const kind of ['detection_event', 'investigation'] as const) {
      for (const outcome of ['accepted', 'rejected'] as const) {
        catalogue.ingestRecords.inc({ app, kind, outcome }, 0);
      }
    }
  }

  received(kind: IngestKind, accepted: number, rejected: number): void {
    if (!this.enabled) return;
    const { app } = this;
    if (accepted > 0)
      this.catalogue.ingestRecords.inc({ app, kind, outcome: 'accepted' }, accepted);
    if (rejected > 0)
      this.catalogue.ingestRecords.inc({ app, kind, outcome: 'rejected' }, rejected);
  }
}
