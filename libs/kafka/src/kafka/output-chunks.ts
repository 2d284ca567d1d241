/** What the chunker needs of a record: its topic and its size. */
export interface SizedRecord {
  topic: string;
  key: string | Buffer | null;
  value: Buffer | null;
  headers?: Readonly<Record<string, string | Buffer | (string | Buffer)[] | undefined>>;
}

/** The broker's default max.message.bytes is 1 MB: stay under it even before compression. */
export const DEFAULT_TOPIC_BUDGET_BYTES = 900_000;
/**
 * Records of one topic in one request. kafkajs 2.2.4 groups a request's records by partition
 * copying the partition's list for every record (producer/groupMessagesPerPartition), a cost
 * that grows with the square of the records per partition: 4,000 records took 30 ms, 1,000
 * took 3. A micro-batch over many detections writes thousands of state records and commands.
 */
export const MAX_RECORDS_PER_TOPIC_REQUEST = 1_000;
/** Bytes of record framing counted per record on top of its key and value. */
const RECORD_OVERHEAD_BYTES = 128;
/**
 * Below this a request goes uncompressed. A micro-batch of a few records (a quiet pipeline: one
 * or two events per transaction) gained nothing from gzip but a trip through the thread pool on
 * the way in and another on every consumer's way out, on the path of every alert.
 */
export const COMPRESS_FROM_BYTES = 32 * 1024;

function sizeOf(record: SizedRecord): number {
  let bytes = (record.key?.length ?? 0) + (record.value?.length ?? 0) + RECORD_OVERHEAD_BYTES;
  // A dead letter's headers carry its reason: counted, or a request of many could pass the limit.
  for (const name in record.headers) {
    const value = record.headers[name];
    bytes += name.length;
    for (const part of Array.isArray(value) ? value : [value]) bytes += part?.length ?? 0;
  }
  return bytes;
}

/** Whether a request of these records is large enough for compression to pay. */
export function worthCompressing(records: readonly SizedRecord[]): boolean {
  let bytes = 0;
  for (const record of records) {
    bytes += sizeOf(record);
    if (bytes >= COMPRESS_FROM_BYTES) return true;
  }
  return false;
}

/**
 * Splits records into produce requests, keeping each topic's share of a request (its record
 * batch) under what the topic accepts and under MAX_RECORDS_PER_TOPIC_REQUEST records. The
 * budget counts uncompressed bytes, so it holds whatever the compression does. `limits` holds
 * the max.message.bytes of topics created with a larger one; half of it is used, leaving room
 * for framing and for limits lowered by hand. Order is kept: a request holds a contiguous run of
 * the records.
 */
export function chunkBySize<T extends SizedRecord>(
  records: readonly T[],
  limits: ReadonlyMap<string, number> = new Map(),
): T[][] {
  const budgetOf = (topic: string) =>
    Math.max(DEFAULT_TOPIC_BUDGET_BYTES, Math.floor((limits.get(topic) ?? 0) / 2));
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = new Map<string, number>();
  let counts = new Map<string, number>();
  for (const record of records) {
    const size = sizeOf(record);
    const used = bytes.get(record.topic) ?? 0;
    const count = counts.get(record.topic) ?? 0;
    if (
      (used > 0 && used + size > budgetOf(record.topic)) ||
      count >= MAX_RECORDS_PER_TOPIC_REQUEST
    ) {
      chunks.push(current);
      current = [];
      bytes = new Map();
      counts = new Map();
    }
    current.push(record);
    bytes.set(record.topic, (bytes.get(record.topic) ?? 0) + size);
    counts.set(record.topic, (counts.get(record.topic) ?? 0) + 1);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
