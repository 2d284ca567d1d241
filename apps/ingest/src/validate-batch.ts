import {
  parseDetectionEvent,
  parseInvestigation,
  parseRecordBatch,
  type DetectionEventRecord,
  type InvestigationRecord,
} from '@vigil/contracts';
import { ApiError } from '@vigil/http';

export interface RecordRejection {
  index: number;
  errors: { path: string; message: string }[];
}

export interface ValidatedBatch<T> {
  accepted: T[];
  rejected: RecordRejection[];
}

type Parser<T> = (
  input: unknown,
) => { ok: true; value: T } | { ok: false; errors: { path: string; message: string }[] };

/**
 * Validates an ingest body record by record: good records are kept, bad ones are reported by
 * their index with every reason. A batch with no good record is a 400, so a client never
 * mistakes a fully rejected batch for a success.
 */
export function validateBatch<T>(
  body: unknown,
  format: 'json' | 'ndjson',
  maxRecords: number,
  parse: Parser<T>,
): ValidatedBatch<T> {
  const batch = parseRecordBatch(body, format);
  if (!batch.ok) throw ApiError.badRequest(batch.message);
  if (batch.records.length === 0) throw ApiError.badRequest('The batch has no records');
  if (batch.records.length > maxRecords) {
    throw new ApiError(
      413,
      'payload_too_large',
      `A batch holds at most ${maxRecords} records; this one has ${batch.records.length}`,
      { max_records: maxRecords, records: batch.records.length },
    );
  }
  const accepted: T[] = [];
  const rejected: RecordRejection[] = [];
  batch.records.forEach((record, index) => {
    const lineError = batch.lineErrors.get(index);
    if (lineError) {
      rejected.push({ index, errors: [{ path: '(record)', message: lineError }] });
      return;
    }
    const parsed = parse(record);
    if (parsed.ok) accepted.push(parsed.value);
    else rejected.push({ index, errors: parsed.errors });
  });
  if (accepted.length === 0) {
    throw ApiError.badRequest('No record in the batch is valid', { rejected });
  }
  return { accepted, rejected };
}

export const detectionEventParser =
  (now: number): Parser<DetectionEventRecord> =>
  (input) =>
    parseDetectionEvent(input, now);

export const investigationParser: Parser<InvestigationRecord> = parseInvestigation;
