import type { DeadLetter, DeadLetterReason } from './dead-letter';

/**
 * What a consumer loop reports as it runs, for liveness probes and metrics (the apps plug in
 * their instruments; the log knows nothing of a metrics library).
 */
export interface ConsumerObserver {
  /** The loop asked the log for records, found or not: it is not stuck. */
  polled(): void;
  /** A step (decoding a batch, one attempt of its handler, its commit) begins; call the result when it ends. */
  batchStarted(): () => void;
  /** Records of a partition committed by the group, dead-lettered ones included. */
  consumed(topic: string, partition: number, records: number): void;
  deadLettered(topic: string, partition: number, reason: DeadLetterReason, records: number): void;
}

/** A transactional processor's loop reports its committed batches' steps and its aborts too. */
export interface ProcessorObserver extends ConsumerObserver {
  batchCommitted(steps: { decodeMs: number; processMs: number; commitMs: number }): void;
  transactionAborted(): void;
}

/** Reports nowhere: the default of every consumer. */
export const unobserved: ProcessorObserver = {
  polled: () => undefined,
  batchStarted: () => () => undefined,
  consumed: () => undefined,
  deadLettered: () => undefined,
  batchCommitted: () => undefined,
  transactionAborted: () => undefined,
};

/** Reports the dead letters of a batch, counted per partition and reason class. */
export function reportDeadLetters(
  observer: ConsumerObserver,
  letters: readonly DeadLetter[],
): void {
  const counts = new Map<string, { letter: DeadLetter; count: number }>();
  for (const letter of letters) {
    const key = `${letter.topic}#${letter.partition}#${letter.reasonClass}`;
    const entry = counts.get(key);
    if (entry) entry.count += 1;
    else counts.set(key, { letter, count: 1 });
  }
  for (const { letter, count } of counts.values()) {
    observer.deadLettered(letter.topic, letter.partition, letter.reasonClass, count);
  }
}

/** Runs `work` as one step of the loop. */
export async function asStep<T>(observer: ConsumerObserver, work: () => Promise<T>): Promise<T> {
  const done = observer.batchStarted();
  try {
    return await work();
  } finally {
    done();
  }
}
