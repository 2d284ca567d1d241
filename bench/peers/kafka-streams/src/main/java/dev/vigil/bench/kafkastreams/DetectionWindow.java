package dev.vigil.bench.kafkastreams;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the peer keeps per detection, as Vigil's processor does: the last {@code windowSize}
 * distinct event ids (a resend of one of them counts nothing), the count of distinct ids, the
 * affected users, and the summaries of the events not yet emitted.
 *
 * <p>Its store layout is Vigil's: ids are sealed in segments of {@link #SEGMENT_IDS}, each written
 * once when it fills and deleted when it leaves the window, so the summary written at each event
 * carries only the ids since the last sealed segment. The summary's lists are kept encoded as they
 * grow, so writing it is a few copies rather than an encoding of every item.
 */
final class DetectionWindow {
  static final int SEGMENT_IDS = 100;

  /** Vigil's list limits: the users kept by name, the event summaries kept for the next record. */
  static final int USER_LIST_LIMIT = 10_000;

  static final int PENDING_LIMIT = 10_000;
  private static final byte FORMAT = 1;

  final String detectionId;
  private final int windowSize;
  String detectionName = "";
  long count;
  long firstEventAt;
  long lastEventAt;

  /** Lowercased email to name, in the order users first appeared. */
  final Map<String, String> users = new LinkedHashMap<>();

  /** 64-bit hashes of users beyond the list, so the user count stays exact. */
  final Set<Long> overflowUsers = new HashSet<>();

  /** Ids of the events numbered count - ids.size() + 1 .. count, oldest first. */
  private final ArrayDeque<String> ids = new ArrayDeque<>();

  private final Set<String> idSet = new HashSet<>();

  /** Events added since the last emitted record (the newest PENDING_LIMIT), and how many. */
  final ArrayDeque<DetectionEvent> pending = new ArrayDeque<>();

  long pendingCount;

  private final EncodedBytes encodedUsers = new EncodedBytes(64);

  /** The ids since the last sealed segment. */
  private final EncodedBytes encodedTail = new EncodedBytes(256);

  private int tailIds;
  private final EncodedBytes encodedPending = new EncodedBytes(256);

  DetectionWindow(String detectionId, int windowSize) {
    this.detectionId = detectionId;
    this.windowSize = windowSize;
  }

  long userCount() {
    return users.size() + overflowUsers.size();
  }

  /** Adds the event unless its id is in the window; false for a duplicate. */
  boolean add(DetectionEvent event) {
    if (!idSet.add(event.id())) return false;
    ids.addLast(event.id());
    if (ids.size() > windowSize) idSet.remove(ids.removeFirst());
    encodedTail.writeString(event.id());
    tailIds++;
    count++;
    firstEventAt = count == 1 ? event.happened() : Math.min(firstEventAt, event.happened());
    lastEventAt = count == 1 ? event.happened() : Math.max(lastEventAt, event.happened());
    detectionName = event.detectionName();
    String email = event.personEmail();
    if (!users.containsKey(email)) {
      if (users.size() < USER_LIST_LIMIT) {
        users.put(email, event.personName());
        encodedUsers.writeString(email).writeString(event.personName());
      } else {
        overflowUsers.add(hash64(email));
      }
    }
    pending.addLast(event);
    pendingCount++;
    if (pending.size() > PENDING_LIMIT) {
      pending.removeFirst();
      encodedPending.reset();
      for (DetectionEvent kept : pending) writePending(kept);
    } else {
      writePending(event);
    }
    return true;
  }

  void clearPending() {
    pending.clear();
    pendingCount = 0;
    encodedPending.reset();
  }

  /** Whether the last add filled a segment; {@link #sealSegment} then writes it. */
  boolean segmentFilled() {
    return count % SEGMENT_IDS == 0 && tailIds > 0;
  }

  /** The number of the segment the last add filled. */
  long sealedSegmentNumber() {
    return count / SEGMENT_IDS - 1;
  }

  /** The value of the segment the last add filled; the summary's tail starts afresh. */
  byte[] sealSegment() {
    byte[] value =
        new EncodedBytes(4 + encodedTail.length())
            .writeInt(tailIds)
            .write(encodedTail)
            .toByteArray();
    encodedTail.reset();
    tailIds = 0;
    return value;
  }

  /** The segment whose last id the last add pushed out of the window, or -1. */
  long expiredSegment() {
    long gone = count - windowSize;
    return gone > 0 && gone % SEGMENT_IDS == 0 ? gone / SEGMENT_IDS - 1 : -1;
  }

  static String segmentKey(String detectionId, long segment) {
    return detectionId + '\u0000' + segment;
  }

  static boolean isSegmentKey(String key) {
    return key.indexOf('\u0000') >= 0;
  }

  /** Everything but the sealed segments, written into {@code scratch} and copied out. */
  byte[] encodeSummary(EncodedBytes scratch) {
    scratch.reset();
    scratch.writeByte(FORMAT).writeString(detectionName);
    scratch.writeLong(count).writeLong(firstEventAt).writeLong(lastEventAt);
    scratch.writeInt(users.size()).write(encodedUsers);
    scratch.writeInt(overflowUsers.size());
    for (long hash : overflowUsers) scratch.writeLong(hash);
    scratch.writeInt(tailIds).write(encodedTail);
    scratch.writeLong(pendingCount).writeInt(pending.size()).write(encodedPending);
    return scratch.toByteArray();
  }

  /** Reads a summary back; the window holds its tail ids until {@link #prependSegment}. */
  static DetectionWindow decodeSummary(String detectionId, int windowSize, byte[] value) {
    DetectionWindow window = new DetectionWindow(detectionId, windowSize);
    ByteBuffer in = ByteBuffer.wrap(value);
    byte format = in.get();
    if (format != FORMAT) throw new IllegalStateException("unknown state format " + format);
    window.detectionName = EncodedBytes.readString(in);
    window.count = in.getLong();
    window.firstEventAt = in.getLong();
    window.lastEventAt = in.getLong();
    for (int n = in.getInt(); n > 0; n--) {
      String email = EncodedBytes.readString(in);
      String name = EncodedBytes.readString(in);
      window.users.put(email, name);
      window.encodedUsers.writeString(email).writeString(name);
    }
    for (int n = in.getInt(); n > 0; n--) window.overflowUsers.add(in.getLong());
    for (int n = in.getInt(); n > 0; n--) {
      String id = EncodedBytes.readString(in);
      if (window.idSet.add(id)) window.ids.addLast(id);
      window.encodedTail.writeString(id);
      window.tailIds++;
    }
    while (window.ids.size() > windowSize) window.idSet.remove(window.ids.removeFirst());
    window.pendingCount = in.getLong();
    for (int n = in.getInt(); n > 0; n--) {
      String id = EncodedBytes.readString(in);
      String email = EncodedBytes.readString(in);
      String name = EncodedBytes.readString(in);
      String description = EncodedBytes.readString(in);
      long happened = in.getLong();
      DetectionEvent event =
          new DetectionEvent(
              id, detectionId, window.detectionName, email, name, description, happened);
      window.pending.addLast(event);
      window.writePending(event);
    }
    return window;
  }

  /** The sealed segment the window still misses (walking back from the tail), or -1. */
  long nextSegmentToRestore() {
    if (ids.size() >= windowSize) return -1;
    long lowest = count - ids.size() + 1;
    // Only contiguous, full segments: the ids held so far start right after one.
    if ((lowest - 1) % SEGMENT_IDS != 0 || lowest == 1) return -1;
    return (lowest - 1) / SEGMENT_IDS - 1;
  }

  void prependSegment(byte[] value) {
    ByteBuffer in = ByteBuffer.wrap(value);
    List<String> segment = new ArrayList<>();
    for (int n = in.getInt(); n > 0; n--) segment.add(EncodedBytes.readString(in));
    for (int i = segment.size() - 1; i >= 0 && ids.size() < windowSize; i--) {
      String id = segment.get(i);
      if (idSet.add(id)) ids.addFirst(id);
    }
  }

  private void writePending(DetectionEvent event) {
    encodedPending
        .writeString(event.id())
        .writeString(event.personEmail())
        .writeString(event.personName())
        .writeString(event.description())
        .writeLong(event.happened());
  }

  private static long hash64(String email) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1").digest(email.getBytes(StandardCharsets.UTF_8));
      long hash = 0;
      for (int i = 0; i < 8; i++) hash = (hash << 8) | (digest[i] & 0xff);
      return hash;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
