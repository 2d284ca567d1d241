/** Counters of a transactional partition processor, Kafka-backed or in-process. */
export interface ProcessorMetrics {
  batches: number;
  /** Input records committed (decoded, rejected or dead-lettered alike). */
  records: number;
  /** Committed transactions, timer-driven ones included. */
  transactions: number;
  /** When the first batch arrived and the last transaction committed (epoch ms). */
  firstBatchAt: number | null;
  lastCommitAt: number | null;
  /** Records written by committed input batches (commands, state, dead letters). */
  outputs: number;
  /**
   * Wall time spent by committed input batches in each step, summed (ms): where a partition's
   * time goes, for benchmarks and profiling. Steps of concurrent partitions overlap.
   */
  stageMs: { decode: number; process: number; commit: number };
}

export function emptyProcessorMetrics(): ProcessorMetrics {
  return {
    batches: 0,
    records: 0,
    transactions: 0,
    firstBatchAt: null,
    lastCommitAt: null,
    outputs: 0,
    stageMs: { decode: 0, process: 0, commit: 0 },
  };
}

/** Adds one committed batch's step times and output count to the counters. */
export function countBatchStages(
  counters: ProcessorMetrics,
  times: { started: number; decoded: number; processed: number; committed: number },
  outputs: number,
): void {
  counters.outputs += outputs;
  counters.stageMs.decode += times.decoded - times.started;
  counters.stageMs.process += times.processed - times.decoded;
  counters.stageMs.commit += times.committed - times.processed;
}
