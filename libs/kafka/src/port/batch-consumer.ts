import type { Logger } from '@vigil/config';
import type { ConsumerObserver } from './consumer-observer';
import type { RejectedRecord } from './dead-letter';
import type { DecodedRecord } from './decoded-record';

/** A consumer-group member that runs until stopped. */
export interface BatchConsumer {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Time of the last batch handled, for readiness checks. */
  readonly lastActivityAt: number;
}

/**
 * What a handler does with one partition's decoded records: its effects must be durable when it
 * returns. Records it cannot accept come back with a reason and go to the DLQ.
 */
export type DecodedBatchHandler = (
  records: DecodedRecord[],
) => Promise<{ rejected: RejectedRecord[] }>;

/**
 * A decoded-batch consumer as the apps describe it: undecodable records go to the DLQ with
 * their reason, the rest to the handler; offsets are committed only once the handler's effects
 * and the dead letters are durable. A failing handler is retried with backoff on the same batch.
 */
export interface DecodedBatchConsumerSpec {
  /**
   * Replaces the log's codec for topics that are not Avro (notification commands are JSON);
   * throws a DecodeError for a record that goes to the DLQ.
   */
  decode?: (value: Buffer | null) => unknown;
  groupId: string;
  topics: string[];
  handler: DecodedBatchHandler;
  logger: Logger;
  fromBeginning?: boolean;
  /** Told of every fetch, step, commit and dead letter (liveness and metrics). */
  observer?: ConsumerObserver;
  /**
   * For a consumer that may lag a little: how long records may gather before a batch is
   * handled, so a busy topic gives fewer, larger batches (one write downstream per batch, not
   * one per record). Unset: each batch as soon as it is there.
   */
  gatherForMs?: number;
}
