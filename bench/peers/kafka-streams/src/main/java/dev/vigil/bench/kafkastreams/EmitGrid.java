package dev.vigil.bench.kafkastreams;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.processor.TaskId;

/**
 * One grid of emit times for every task of the stream thread. Each task's wall-clock punctuation
 * runs on its own schedule, anchored when the task started, and each commit request commits the
 * whole thread: with six tasks the thread committed two or three times per interval. Here a task
 * emits at its first tick past a multiple of the interval, and the last task to emit asks for the
 * commit, so the thread commits once per interval with every task's records emitted.
 *
 * <p>Used by the one stream thread only (num.stream.threads = 1): no locking.
 */
final class EmitGrid {
  /** How often a task looks at the clock: the delay between a grid time and its emit. */
  static final long TICK_MS = 10;

  private final long intervalMs;

  /** The last grid interval each running task emitted for. */
  private final Map<TaskId, Long> emittedUpTo = new HashMap<>();

  EmitGrid(long intervalMs) {
    this.intervalMs = intervalMs;
  }

  /** A task starts; its first emit is at the next grid time. */
  void join(TaskId task, long now) {
    emittedUpTo.put(task, now / intervalMs);
  }

  void leave(TaskId task) {
    emittedUpTo.remove(task);
  }

  boolean due(TaskId task, long now) {
    return now / intervalMs > emittedUpTo.getOrDefault(task, Long.MAX_VALUE);
  }

  /** The task emitted; true when it was the last to emit for this grid time: commit now. */
  boolean emitted(TaskId task, long now) {
    long slot = now / intervalMs;
    emittedUpTo.put(task, slot);
    return emittedUpTo.values().stream().allMatch(done -> done >= slot);
  }
}
