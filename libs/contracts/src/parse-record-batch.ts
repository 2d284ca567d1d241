/** An ingest batch as it arrived, before validation; `lineErrors` are keyed by record index. */
export type RawBatch =
  | { ok: true; records: unknown[]; lineErrors: Map<number, string> }
  | { ok: false; message: string };

/**
 * Reads an ingest body: a JSON array (or a single JSON object) of records, or NDJSON (one
 * JSON record per line). A malformed NDJSON line is not fatal: it is reported as that record's
 * error so the rest of the batch is still accepted.
 */
export function parseRecordBatch(body: unknown, format: 'json' | 'ndjson'): RawBatch {
  if (format === 'json') {
    if (Array.isArray(body)) return { ok: true, records: body, lineErrors: new Map() };
    if (typeof body === 'object' && body !== null)
      return { ok: true, records: [body], lineErrors: new Map() };
    return { ok: false, message: 'Expected a JSON array of records or one JSON object' };
  }
  if (typeof body !== 'string') return { ok: false, message: 'Expected NDJSON text' };
  const records: unknown[] = [];
  const lineErrors = new Map<number, string>();
  const lines = body.split(/\r?\n/).filter((line) => line.trim() !== '');
  lines.forEach((line, index) => {
    try {
      records.push(JSON.parse(line));
    } catch {
      records.push(undefined);
      lineErrors.set(index, `line ${index + 1} is not valid JSON`);
    }
  });
  return { ok: true, records, lineErrors };
}
