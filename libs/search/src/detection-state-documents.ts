import { isDetectionStateKey } from '@vigil/contracts';
import {
  restoreDetectionState,
  type DetectionSnapshot,
  type StoredDetectionState,
} from '@vigil/notification-policy';

/**
 * A detection's notification state as the stream processor last recorded it on the state topic
 * (processor.detection-state.v1): what the decisions read (per channel: last notified count and
 * time, digest window, the new events' score and sources; the buffered events), without the
 * de-duplication window, which only the processor needs.
 */
export interface RecordedDetectionState {
  snapshot: DetectionSnapshot;
  /** When the processor wrote it (the state record's timestamp), epoch ms. */
  recordedAt: number;
}

/** The stored form, in Elasticsearch and in SQL. */
export interface DetectionStateDocument {
  detection_id: string;
  /** The snapshot as written (JSON; not indexed). */
  state: DetectionSnapshot;
  recorded_at: string;
  indexed_at: string;
}

/**
 * The recorded state a state-topic record carries, or why it carries none: a key of another
 * kind (an investigation's fingerprint, a window segment), a tombstone, or a value this version
 * cannot read (the indexer skips those; the processor is the topic's only writer).
 */
export function toRecordedDetectionState(
  key: string,
  value: Buffer | null,
  recordedAt: number,
): RecordedDetectionState | string {
  if (!isDetectionStateKey(key)) return 'not a detection state';
  if (value === null) return 'a tombstone';
  let stored: Partial<StoredDetectionState & { windowSegmentSize: number }>;
  try {
    stored = JSON.parse(value.toString('utf8')) as typeof stored;
  } catch {
    return 'not JSON';
  }
  if (typeof stored !== 'object' || stored === null) return 'not a state';
  if (stored.schemaVersion !== 1) return `schema version ${String(stored.schemaVersion)}`;
  if (stored.detectionId !== key) return 'a state of another detection';
  if (typeof stored.channels?.webhook !== 'object' || typeof stored.channels.email !== 'object') {
    return 'a state without channels';
  }
  const {
    recentEventIds: _window,
    overflowUserHashes: _hashes,
    windowSegmentSize: _size,
    ...snapshot
  } = stored as StoredDetectionState & { windowSegmentSize?: number };
  return { snapshot: restoreDetectionState(snapshot), recordedAt };
}

export function toDetectionStateDocument(
  recorded: RecordedDetectionState,
  indexedAt: number,
): DetectionStateDocument {
  return {
    detection_id: recorded.snapshot.detectionId,
    state: recorded.snapshot,
    recorded_at: new Date(recorded.recordedAt).toISOString(),
    indexed_at: new Date(indexedAt).toISOString(),
  };
}

/** A stored document read back; states of older processors restored as the policy reads them. */
export function fromDetectionStateDocument(
  doc: Pick<DetectionStateDocument, 'recorded_at'> & { state: unknown },
): RecordedDetectionState {
  const stored = doc.state as Parameters<typeof restoreDetectionState>[0] & DetectionSnapshot;
  return { snapshot: restoreDetectionState(stored), recordedAt: Date.parse(doc.recorded_at) };
}

/** The last state of each detection, in first-seen order: a later record supersedes an earlier one. */
export function lastStateOfEachDetection(
  states: readonly RecordedDetectionState[],
): RecordedDetectionState[] {
  const byId = new Map<string, RecordedDetectionState>();
  for (const state of states) {
    byId.delete(state.snapshot.detectionId);
    byId.set(state.snapshot.detectionId, state);
  }
  return [...byId.values()];
}
