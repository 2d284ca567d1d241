import {
  parseDetectionEvent,
  parseInvestigation,
  type DetectionEventRecord,
  type InvestigationRecord,
} from '@vigil/contracts';
import { toRecordedDetectionState, type RecordedDetectionState } from './detection-state-documents';
import type { ReadModelWriter } from './read-model-writer';

/** A record of the state topic as the log hands it over (its value left undecoded). */
export interface StateTopicRecord {
  key: Buffer | null;
  value: unknown;
  /** When the processor wrote it: epoch milliseconds, as a decimal string. */
  raw: { timestamp: string };
}

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

/**
 * The detection states on the state topic into the detection states read model. Records that
 * hold no detection state (investigations' fingerprints, window segments, tombstones) are
 * passed over; any that cannot be read come back with the reason, for the caller to log (the
 * topic is the processor's own changelog: it has no dead-letter topic, and a bad state must not
 * stop the read model).
 */
export async function projectDetectionStates<T extends StateTopicRecord>(
  writer: ReadModelWriter,
  records: readonly T[],
  now: number,
): Promise<{ record: T; reason: string }[]> {
  const states: { record: T; state: RecordedDetectionState }[] = [];
  const unreadable: { record: T; reason: string }[] = [];
  for (const record of records) {
    const key = record.key?.toString('utf8') ?? '';
    const value = Buffer.isBuffer(record.value) ? record.value : null;
    const state = toRecordedDetectionState(key, value, Number(record.raw.timestamp));
    if (typeof state !== 'string') states.push({ record, state });
    else if (!PASSED_OVER.has(state)) unreadable.push({ record, reason: state });
  }
  const failed = await writer.indexDetectionStates(
    states.map((s) => s.state),
    now,
  );
  for (const f of failed) {
    const source = states.find((s) => s.state === f.record)!;
    unreadable.push({ record: source.record, reason: f.reason });
  }
  return unreadable;
}

const PASSED_OVER: ReadonlySet<string> = new Set(['not a detection state', 'a tombstone']);

function describe(errors: { path: string; message: string }[]): string {
  return `invalid record: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`;
}
