import {
  parseDetectionEvent,
  parseInvestigation,
  type DetectionEventRecord,
  type InvestigationRecord,
} from '@vigil/contracts';
import type { ReadModelWriter } from './read-model-writer';

export type ProjectedKind = 'detection-event' | 'investigation';

/**
 * Turns decoded records into read-model documents. A record that fails validation or that
 * the backend rejects for its content is returned with the reason; everything else is
 * written before this returns.
 */
export class ReadModelProjector {
  constructor(private readonly writer: ReadModelWriter) {}

  async project<T extends { value: unknown }>(
    kind: ProjectedKind,
    records: readonly T[],
    now: number,
  ): Promise<{ record: T; reason: string }[]> {
    const rejected: { record: T; reason: string }[] = [];
    if (kind === 'detection-event') {
      const valid: { record: T; event: DetectionEventRecord }[] = [];
      for (const record of records) {
        // Avro decoding gives the schema's shape; the same validation as ingest applies.
        const parsed = parseDetectionEvent(record.value, now);
        if (parsed.ok) valid.push({ record, event: parsed.value });
        else rejected.push({ record, reason: describe(parsed.errors) });
      }
      const failed = await this.writer.indexEvents(
        valid.map((v) => v.event),
        now,
      );
      for (const f of failed) {
        const source = valid.find((v) => v.event === f.record)!;
        rejected.push({ record: source.record, reason: f.reason });
      }
      return rejected;
    }
    const valid: { record: T; report: InvestigationRecord }[] = [];
    for (const record of records) {
      const parsed = parseInvestigation(record.value);
      if (parsed.ok) valid.push({ record, report: parsed.value });
      else rejected.push({ record, reason: describe(parsed.errors) });
    }
    const failed = await this.writer.indexInvestigations(valid.map((v) => v.report));
    for (const f of failed) {
      const source = valid.find((v) => v.report === f.record)!;
      rejected.push({ record: source.record, reason: f.reason });
    }
    return rejected;
  }
}

function describe(errors: { path: string; message: string }[]): string {
  return `invalid record: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`;
}
