import {
  encodeDetectionCommands,
  encodeNotificationCommand,
  type DetectionEventRecord,
  type InvestigationRecord,
} from '@vigil/contracts';
import type { OutputRecord } from '@vigil/kafka';
import type {
  DetectionEvent,
  DetectionState,
  InvestigationDecision,
  InvestigationSnapshot,
  NotificationDecision,
} from '@vigil/notification-policy';

/**
 * Keys of the state topic: a detection's state under its id (the detections read model
 * consumes these), an investigation's last notified fingerprint under this prefix.
 */
export const INVESTIGATION_STATE_PREFIX = 'investigation:';

export interface InvestigationStateValue {
  schemaVersion: 1;
  investigationId: string;
  fingerprint: string;
}

export interface ProcessorTopics {
  notificationCommands: string;
  detectionState: string;
}

export function toDetectionEvent(record: DetectionEventRecord): DetectionEvent {
  return {
    id: record.id,
    detectionId: record.detection_id,
    detectionName: record.detection_name,
    personName: record.employee_name,
    personEmail: record.employee_email,
    description: record.description ?? '',
    timestamp: record.happened,
  };
}

/** What an investigation notification is about; updated_at is left out (a resend changes it). */
export function toInvestigationSnapshot(record: InvestigationRecord): InvestigationSnapshot {
  return {
    investigationId: record.id,
    status: record.status,
    outcome: record.outcome ?? '',
    headline: record.headline,
    personName: record.person.name,
    personEmail: record.person.email,
    detectionId: record.detection.id,
    detectionName: record.detection.name,
    riskScore: record.risk_score,
    report: {
      summary: record.summary,
      confidence: record.confidence,
      recommendedAction: record.recommended_action,
      riskScore: record.risk_score,
      findings: record.findings,
      person: {
        role: record.person.role,
        department: record.person.department,
        manager: record.person.manager,
      },
    },
  };
}

/**
 * The decisions of one recalculation of a detection in one record (version 2), keyed by the
 * detection so its commands stay in order.
 */
export function detectionCommandsRecord(
  topics: ProcessorTopics,
  detectionId: string,
  decisions: readonly NotificationDecision[],
  now: number,
): OutputRecord {
  return {
    topic: topics.notificationCommands,
    key: detectionId,
    value: encodeDetectionCommands(decisions, now),
  };
}

/** One command per decision, keyed so an investigation's commands stay in order. */
export function commandRecord(
  topics: ProcessorTopics,
  key: string,
  decision: NotificationDecision | InvestigationDecision,
  now: number,
): OutputRecord {
  return {
    topic: topics.notificationCommands,
    key,
    value: encodeNotificationCommand({
      version: 1,
      id: decision.notificationId,
      emittedAt: now,
      decision,
    }),
  };
}

/**
 * Keys of the sealed segments of a detection's de-duplication window:
 * `dedup-window:<segment>:<detection id>`.
 */
export const WINDOW_SEGMENT_PREFIX = 'dedup-window:';
/** Ids per sealed window segment: a state record carries at most this many ids. */
export const WINDOW_SEGMENT_IDS = 1000;

/** A detection's state as written to the state topic: the window holds only its unsealed tail. */
export interface StoredDetectionState extends DetectionState {
  /** Present when `recentEventIds` is the tail past the last sealed segment of this size. */
  windowSegmentSize?: number;
}

/**
 * The records of one detection's new state, in the input's partition number (where it is
 * restored from). The de-duplication window (up to 10,000 ids) is not rewritten at each batch:
 * ids are sealed in segments of WINDOW_SEGMENT_IDS, each written once, when it fills, and
 * tombstoned when it leaves the window; the state record carries the ids since the last one.
 * `recentEventIds` holds the ids of the events numbered count - length + 1 .. count.
 * `writeWholeWindow` seals every segment of the window again: for a state restored from a record
 * that carried its whole window (no segments of it exist yet).
 */
export function detectionStateRecords(
  topics: ProcessorTopics,
  partition: number,
  previousCount: number,
  state: DetectionState,
  windowSize: number,
  writeWholeWindow = false,
): OutputRecord[] {
  const size = WINDOW_SEGMENT_IDS;
  const { count, detectionId } = state;
  const sealedUpTo = Math.floor(count / size) * size;
  const records: OutputRecord[] = [];
  const segmentRecord = (segment: number, value: Buffer | null): OutputRecord => ({
    topic: topics.detectionState,
    key: `${WINDOW_SEGMENT_PREFIX}${segment}:${detectionId}`,
    value,
    partition,
  });
  // Segments that left the window with this batch.
  const gone = count - windowSize;
  for (let segment = Math.max(0, Math.floor((previousCount - windowSize) / size)); ; segment++) {
    const end = (segment + 1) * size;
    if (end > gone) break;
    if (end > previousCount - windowSize) records.push(segmentRecord(segment, null));
  }
  // Segments filled by this batch.
  const firstFilled = writeWholeWindow
    ? Math.floor((count - state.recentEventIds.length) / size)
    : Math.floor(previousCount / size);
  for (let segment = firstFilled; (segment + 1) * size <= count; segment++) {
    const ids = idsOfEvents(state, segment * size + 1, (segment + 1) * size);
    if (ids.length > 0) records.push(segmentRecord(segment, Buffer.from(JSON.stringify(ids))));
  }
  const stored: StoredDetectionState = {
    ...state,
    recentEventIds: idsOfEvents(state, sealedUpTo + 1, count),
    windowSegmentSize: size,
  };
  records.push({
    topic: topics.detectionState,
    key: detectionId,
    value: Buffer.from(JSON.stringify(stored), 'utf8'),
    partition,
  });
  return records;
}

/** The window ids of the events numbered from..to (1-based), those still in the window. */
function idsOfEvents(state: DetectionState, from: number, to: number): string[] {
  const ids = state.recentEventIds;
  const firstNumber = state.count - ids.length + 1;
  return ids.slice(Math.max(0, from - firstNumber), Math.max(0, to - firstNumber + 1));
}

/**
 * The detection states of a restored changelog, windows reassembled from their sealed segments:
 * walking back from the tail through contiguous, full segments, up to `windowSize` ids.
 */
export function restoreDetectionStates(
  changelog: ReadonlyMap<string, Buffer>,
  windowSize: number,
): { states: Map<string, DetectionState>; wholeWindowRecords: Set<string> } {
  const segments = new Map<string, Map<number, string[]>>();
  for (const [key, value] of changelog) {
    if (!key.startsWith(WINDOW_SEGMENT_PREFIX)) continue;
    const rest = key.slice(WINDOW_SEGMENT_PREFIX.length);
    const colon = rest.indexOf(':');
    const detectionId = rest.slice(colon + 1);
    const bySegment = segments.get(detectionId) ?? new Map<number, string[]>();
    bySegment.set(Number(rest.slice(0, colon)), JSON.parse(value.toString('utf8')) as string[]);
    segments.set(detectionId, bySegment);
  }
  const states = new Map<string, DetectionState>();
  /** Detections whose record carried the whole window: their segments are yet to be written. */
  const wholeWindowRecords = new Set<string>();
  for (const [key, value] of changelog) {
    if (key.startsWith(INVESTIGATION_STATE_PREFIX) || key.startsWith(WINDOW_SEGMENT_PREFIX)) {
      continue;
    }
    const { windowSegmentSize: size, ...state } = JSON.parse(
      value.toString('utf8'),
    ) as StoredDetectionState;
    if (state.schemaVersion !== 1) continue;
    if (size === undefined) {
      wholeWindowRecords.add(key);
    } else {
      const parts = [state.recentEventIds];
      let length = state.recentEventIds.length;
      let lowest = state.count - length + 1;
      for (let segment = Math.floor(state.count / size) - 1; segment >= 0; segment--) {
        const ids = segments.get(key)?.get(segment);
        if (length >= windowSize || lowest !== (segment + 1) * size + 1 || !ids) break;
        parts.unshift(ids);
        length += ids.length;
        lowest -= ids.length;
      }
      const window = parts.flat();
      state.recentEventIds = window.slice(Math.max(0, window.length - windowSize));
    }
    states.set(key, state);
  }
  return { states, wholeWindowRecords };
}

export function investigationStateRecord(
  topics: ProcessorTopics,
  partition: number,
  investigationId: string,
  fingerprint: string,
): OutputRecord {
  const value: InvestigationStateValue = { schemaVersion: 1, investigationId, fingerprint };
  return {
    topic: topics.detectionState,
    key: `${INVESTIGATION_STATE_PREFIX}${investigationId}`,
    value: Buffer.from(JSON.stringify(value), 'utf8'),
    partition,
  };
}

/** Problems of a record as one DLQ reason. */
export function describeProblems(
  what: string,
  errors: readonly { path: string; message: string }[],
): string {
  return `invalid ${what}: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`;
}
