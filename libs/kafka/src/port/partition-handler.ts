import type { RejectedRecord } from './dead-letter';
import type { DecodedRecord } from './decoded-record';
import type { RecordHeaders } from './log-record';

/** A changelog partition as a map of key to latest value (tombstones removed). */
export type ChangelogEntries = Map<string, Buffer>;

/** A record the processor writes in the partition's transaction. */
export interface OutputRecord {
  topic: string;
  key: string;
  /** null writes a tombstone (compacted topics). */
  value: Buffer | null;
  /** Explicit partition (changelog writes go to the input's partition number). */
  partition?: number;
  headers?: RecordHeaders;
}

export interface ProcessedBatch {
  outputs: OutputRecord[];
  /** Records the handler refuses, with the reason; they go to `<topic>.dlq` in the same transaction. */
  rejected: RejectedRecord[];
  /** Called once the transaction committed: the handler makes its new state current. */
  commit?: () => void;
}

export interface Punctuation {
  outputs: OutputRecord[];
  commit?: () => void;
}

/**
 * The processing of one input partition. It holds that partition's state in memory; what it
 * returns is written in one transaction and only then `commit` is called, so a failed
 * transaction leaves the state as it was before the batch.
 */
export interface PartitionHandler {
  process(records: DecodedRecord[], now: number): ProcessedBatch | Promise<ProcessedBatch>;
  /** Called on a timer and on wake(); outputs are written in their own transaction. */
  punctuate(now: number): Punctuation | null;
  /** The partition was revoked or dropped: this handler receives nothing more. */
  close?(): void;
}
