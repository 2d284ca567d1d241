import {
  isDetectionStateKey,
  isWindowSegmentKey,
  parseWindowSegmentKey,
  windowSegmentKey,
} from '@vigil/contracts';
import type { OutputRecord } from '@vigil/kafka';
import {
  restoreDetectionState,
  type DetectionState,
  type StoredDetectionState as PolicyStoredState,
} from '@vigil/notification-policy';
import type { ProcessorTopics } from './processor-topics';

/**
 * Ids per sealed window segment: a state record carries fewer than this many ids, so every
 * write of a state costs at most about this many ids (~40 bytes each) on top of the state.
 * Smaller segments write fewer bytes per event but give a restore more records to hold: at 20,
 * state records were half as large, the CPU per event did not change measurably, and a restore
 * of 1.7M ids over 800 detections took the processor past its 400 MB bound (442 vs 354 MiB).
 */
export const WINDOW_SEGMENT_IDS = 100;

/** A detection's state as written to the state topic: the window holds only its unsealed tail. */
export interface StoredDetectionState extends DetectionState {
  /** Present when `recentEventIds` is the tail past the last sealed segment of this size. */
  windowSegmentSize?: number;
}

/**
 * What the next write of a restored detection must do besides the usual: seal its whole window
 * again in segments of the current size (its record carried the whole window, or its segments
 * have another size), and delete the segments its window no longer uses.
 */
export interface WindowReseal {
  rewriteWindow: boolean;
  staleSegmentKeys: string[];
}

/**
 * The records of one detection's new state, in the input's partition number (where it is
 * restored from). The de-duplication window (up to 10,000 ids) is not rewritten at each batch:
 * ids are sealed in segments of `segmentSize`, each written once, when it fills, and
 * tombstoned when it leaves the window; the state record carries the ids since the last one.
 * `recentEventIds` holds the ids of the events numbered count - length + 1 .. count.
 * A `reseal` (after a restore) seals every segment of the window again and deletes stale ones.
 */
export function detectionStateRecords(
  topics: ProcessorTopics,
  partition: number,
  previousCount: number,
  state: DetectionState,
  windowSize: number,
  reseal?: WindowReseal,
  segmentSize = WINDOW_SEGMENT_IDS,
): OutputRecord[] {
  const size = segmentSize;
  const { count, detectionId } = state;
  const sealedUpTo = Math.floor(count / size) * size;
  const records: OutputRecord[] = [];
  const stateRecord = (key: string, value: Buffer | null): OutputRecord => ({
    topic: topics.detectionState,
    key,
    value,
    partition,
  });
  for (const key of reseal?.staleSegmentKeys ?? []) records.push(stateRecord(key, null));
  // Segments that left the window with this batch.
  const gone = count - windowSize;
  for (let segment = Math.max(0, Math.floor((previousCount - windowSize) / size)); ; segment++) {
    const end = (segment + 1) * size;
    if (end > gone) break;
    if (end > previousCount - windowSize) {
      records.push(stateRecord(windowSegmentKey(size, segment, detectionId), null));
    }
  }
  // Segments filled by this batch.
  const firstFilled = reseal?.rewriteWindow
    ? Math.floor((count - state.recentEventIds.length) / size)
    : Math.floor(previousCount / size);
  for (let segment = firstFilled; (segment + 1) * size <= count; segment++) {
    const ids = idsOfEvents(state, segment * size + 1, (segment + 1) * size);
    if (ids.length > 0) {
      records.push(
        stateRecord(windowSegmentKey(size, segment, detectionId), Buffer.from(JSON.stringify(ids))),
      );
    }
  }
  const stored: StoredDetectionState = {
    ...state,
    recentEventIds: idsOfEvents(state, sealedUpTo + 1, count),
    windowSegmentSize: size,
  };
  records.push(stateRecord(detectionId, Buffer.from(JSON.stringify(stored), 'utf8')));
  return records;
}

/**
 * The state with only the window ids its next write can need as strings: those past its last
 * sealed segment, which its next state record carries or a segment seals. Older ids are in
 * sealed segments already; the processor looks them up in its hashed window.
 */
export function unsealedWindowIds(
  state: DetectionState,
  segmentSize = WINDOW_SEGMENT_IDS,
): DetectionState {
  const { count } = state;
  const ids = idsOfEvents(state, Math.floor(count / segmentSize) * segmentSize + 1, count);
  return ids.length === state.recentEventIds.length ? state : { ...state, recentEventIds: ids };
}

/** The window ids of the events numbered from..to (1-based), those still in the window. */
function idsOfEvents(state: DetectionState, from: number, to: number): string[] {
  const ids = state.recentEventIds;
  const firstNumber = state.count - ids.length + 1;
  return ids.slice(Math.max(0, from - firstNumber), Math.max(0, to - firstNumber + 1));
}

interface SegmentRecord {
  key: string;
  size: number;
  segment: number;
  /** The ids as written (a JSON array), parsed only when the walk uses the segment. */
  value: Buffer;
}

/**
 * What a caller keeps of each restored detection, told as each is restored so that no more
 * than one detection's window is held as strings at a time: the processor hashes the window
 * and keeps only the ids its next write needs.
 */
export type KeepRestoredState = (
  detectionId: string,
  state: DetectionState,
  reseal: WindowReseal | undefined,
) => DetectionState;

/**
 * The detection states of a restored changelog, windows reassembled from their sealed segments
 * (of the size the state record names): walking back from the tail through contiguous, full
 * segments, up to `windowSize` ids. Detections whose next write must reseal their window are
 * listed in `reseals`: a record that carried its whole window, or one whose segment size is not
 * `segmentSize`, or that has segments of another size left over. Each detection's state goes
 * through `keep` as soon as it is restored.
 */
export function restoreDetectionStates(
  changelog: ReadonlyMap<string, Buffer>,
  windowSize: number,
  segmentSize = WINDOW_SEGMENT_IDS,
  keep: KeepRestoredState = (_detectionId, state) => state,
): { states: Map<string, DetectionState>; reseals: Map<string, WindowReseal> } {
  const segments = new Map<string, SegmentRecord[]>();
  for (const [key, value] of changelog) {
    if (!isWindowSegmentKey(key)) continue;
    const { size, segment, detectionId } = parseWindowSegmentKey(key);
    const list = segments.get(detectionId) ?? [];
    list.push({ key, size, segment, value });
    segments.set(detectionId, list);
  }
  const states = new Map<string, DetectionState>();
  const reseals = new Map<string, WindowReseal>();
  for (const [key, value] of changelog) {
    if (!isDetectionStateKey(key)) continue;
    const { windowSegmentSize: size, ...stored } = JSON.parse(
      value.toString('utf8'),
    ) as PolicyStoredState & { windowSegmentSize?: number };
    if (stored.schemaVersion !== 1) continue;
    // Records of older processors lack fields the current code reads.
    const state: DetectionState = restoreDetectionState(stored);
    const own = segments.get(key) ?? [];
    const used = new Set<SegmentRecord>();
    if (size !== undefined) {
      const bySegment = new Map(own.filter((s) => s.size === size).map((s) => [s.segment, s]));
      const parts = [state.recentEventIds];
      let length = state.recentEventIds.length;
      let lowest = state.count - length + 1;
      for (let segment = Math.floor(state.count / size) - 1; segment >= 0; segment--) {
        const sealed = bySegment.get(segment);
        if (length >= windowSize || lowest !== (segment + 1) * size + 1 || !sealed) break;
        used.add(sealed);
        const ids = JSON.parse(sealed.value.toString('utf8')) as string[];
        parts.unshift(ids);
        length += ids.length;
        lowest -= ids.length;
      }
      const window = parts.flat();
      state.recentEventIds = window.slice(Math.max(0, window.length - windowSize));
    }
    const rewriteWindow = size !== segmentSize;
    // After a rewrite no segment of the old layout is used; otherwise those the walk skipped
    // (outside a window configured smaller, say) are left-overs.
    const stale = own.filter((s) => rewriteWindow || !used.has(s)).map((s) => s.key);
    const reseal =
      rewriteWindow || stale.length > 0 ? { rewriteWindow, staleSegmentKeys: stale } : undefined;
    if (reseal) reseals.set(key, reseal);
    states.set(key, keep(key, state, reseal));
  }
  return { states, reseals };
}
