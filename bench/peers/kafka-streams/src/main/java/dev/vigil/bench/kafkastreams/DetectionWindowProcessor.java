package dev.vigil.bench.kafkastreams;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One input partition (stream task): decodes each event, drops an id already in its detection's
 * window, and folds the rest into the detection's state; at each time of the {@link EmitGrid},
 * writes one record per detection that changed, with the new events' summaries.
 *
 * <p>The store is written through at every event (its cache turns that into one RocksDB and
 * changelog write per key per commit), so whatever a commit covers is in the store, restored from
 * the changelog after a crash: de-duplication holds across restarts, and events processed but not
 * yet emitted when a task moved are emitted by its next owner.
 */
final class DetectionWindowProcessor implements Processor<String, byte[], String, byte[]> {
  static final String STORE = "detection-windows";
  private static final Logger log = LoggerFactory.getLogger(DetectionWindowProcessor.class);

  private final ConfluentAvroDecoder decoder;
  private final int windowSize;
  private final EmitGrid grid;
  private final Progress progress;

  /** Every detection of this task met so far, as Vigil's processor keeps them. */
  private final Map<String, DetectionWindow> windows = new HashMap<>();

  private final Set<String> changed = new LinkedHashSet<>();
  private ProcessorContext<String, byte[]> context;
  private KeyValueStore<String, byte[]> store;

  private final EncodedBytes scratch = new EncodedBytes(4096);

  /** Records of this task processed since its last emit. */
  private long sinceEmit;

  DetectionWindowProcessor(String registryUrl, int windowSize, EmitGrid grid, Progress progress) {
    this.decoder = new ConfluentAvroDecoder(registryUrl);
    this.windowSize = windowSize;
    this.grid = grid;
    this.progress = progress;
  }

  @Override
  public void init(ProcessorContext<String, byte[]> context) {
    this.context = context;
    this.store = context.getStateStore(STORE);
    changed.addAll(detectionsWithPendingEvents());
    // Not context.currentSystemTimeMs(): before the first record it is not set yet.
    grid.join(context.taskId(), System.currentTimeMillis());
    context.schedule(
        Duration.ofMillis(EmitGrid.TICK_MS), PunctuationType.WALL_CLOCK_TIME, this::tick);
  }

  @Override
  public void close() {
    grid.leave(context.taskId());
  }

  @Override
  public void process(Record<String, byte[]> record) {
    progress.recordSeen();
    sinceEmit++;
    DetectionEvent event;
    try {
      event = decoder.decode(record.value());
    } catch (ConfluentAvroDecoder.UndecodableRecordException e) {
      reject(e.getMessage());
      return;
    }
    // State lives on the partition of its key: a record keyed otherwise would split it.
    if (!event.detectionId().equals(record.key())) {
      reject("record key is not the detection_id");
      return;
    }
    String detectionId = event.detectionId();
    DetectionWindow window = windows.get(detectionId);
    if (window == null) {
      window = load(detectionId);
      windows.put(detectionId, window);
    }
    if (!window.add(event)) {
      progress.duplicates.incrementAndGet();
      return;
    }
    if (window.segmentFilled()) {
      String key = DetectionWindow.segmentKey(detectionId, window.sealedSegmentNumber());
      store.put(key, window.sealSegment());
    }
    long expired = window.expiredSegment();
    if (expired >= 0) store.delete(DetectionWindow.segmentKey(detectionId, expired));
    store.put(detectionId, window.encodeSummary(scratch));
    changed.add(detectionId);
  }

  private void tick(long now) {
    if (!grid.due(context.taskId(), now)) return;
    for (String detectionId : changed) {
      DetectionWindow window = windows.get(detectionId);
      context.forward(new Record<>(detectionId, DetectionUpdateJson.encode(window, now), now));
      window.clearPending();
      store.put(detectionId, window.encodeSummary(scratch));
      progress.emittedRecords.incrementAndGet();
    }
    changed.clear();
    progress.emitted.addAndGet(sinceEmit);
    sinceEmit = 0;
    if (grid.emitted(context.taskId(), now)) context.commit();
  }

  private DetectionWindow load(String detectionId) {
    byte[] summary = store.get(detectionId);
    if (summary == null) return new DetectionWindow(detectionId, windowSize);
    DetectionWindow window = DetectionWindow.decodeSummary(detectionId, windowSize, summary);
    for (long segment; (segment = window.nextSegmentToRestore()) >= 0; ) {
      byte[] ids = store.get(DetectionWindow.segmentKey(detectionId, segment));
      if (ids == null) break;
      window.prependSegment(ids);
    }
    return window;
  }

  /** Detections restored with events their previous owner processed but did not emit. */
  private Set<String> detectionsWithPendingEvents() {
    Set<String> pending = new LinkedHashSet<>();
    try (KeyValueIterator<String, byte[]> all = store.all()) {
      while (all.hasNext()) {
        KeyValue<String, byte[]> entry = all.next();
        if (DetectionWindow.isSegmentKey(entry.key)) continue;
        DetectionWindow summary = DetectionWindow.decodeSummary(entry.key, windowSize, entry.value);
        if (summary.pendingCount > 0) pending.add(entry.key);
      }
    }
    for (String detectionId : pending) windows.put(detectionId, load(detectionId));
    return pending;
  }

  private void reject(String reason) {
    if (progress.rejected.incrementAndGet() <= 10) log.warn("record skipped: {}", reason);
  }
}
