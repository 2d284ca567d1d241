package dev.vigil.bench.kafkastreams;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the bench reads off the peer: records handed to the processor, records whose output has been
 * emitted, and how many of those a committed transaction holds, with the time of that commit (the
 * same end point as Vigil's processor metrics: the last commit).
 */
final class Progress {
  final AtomicLong firstRecordAt = new AtomicLong();
  final AtomicLong processed = new AtomicLong();
  final AtomicLong rejected = new AtomicLong();
  final AtomicLong duplicates = new AtomicLong();
  final AtomicLong emittedRecords = new AtomicLong();

  /** Input records whose output was forwarded (their task punctuated since). */
  final AtomicLong emitted = new AtomicLong();

  final AtomicLong committed = new AtomicLong();
  final AtomicLong committedAt = new AtomicLong();
  final AtomicLong commits = new AtomicLong();

  void recordSeen() {
    processed.incrementAndGet();
    firstRecordAt.compareAndSet(0, System.currentTimeMillis());
  }

  /**
   * Called by the producer on the stream thread around a transaction commit: every punctuation
   * before it (same thread) is in the transaction.
   */
  long beforeCommit() {
    return emitted.get();
  }

  void afterCommit(long emittedBefore) {
    committedAt.set(System.currentTimeMillis());
    committed.set(emittedBefore);
    commits.incrementAndGet();
  }

  String line() {
    return "progress processed="
        + processed.get()
        + " emitted="
        + emitted.get()
        + " committed="
        + committed.get()
        + " committed_at="
        + committedAt.get()
        + " first_record_at="
        + firstRecordAt.get()
        + " commits="
        + commits.get()
        + " records_written="
        + emittedRecords.get()
        + " duplicates="
        + duplicates.get()
        + " rejected="
        + rejected.get();
  }
}
