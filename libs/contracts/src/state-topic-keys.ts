/*
 * Keys of the state topic (processor.detection-state.v1), which the stream processor writes and
 * the indexer reads: a detection's state under its id (the detection states read model consumes
 * these), an investigation's last notified fingerprint under INVESTIGATION_STATE_PREFIX, and the
 * sealed segments of a detection's de-duplication window under WINDOW_SEGMENT_PREFIX.
 */

const INVESTIGATION_STATE_PREFIX = 'investigation:';

/**
 * `dedup-window:<segment size>/<segment>:<detection id>`. Records written before the size was
 * part of the key read `dedup-window:<segment>:<detection id>`, with segments of 1,000 ids.
 */
export const WINDOW_SEGMENT_PREFIX = 'dedup-window:';
/** The segment size of keys without one (the first layout). */
const UNSIZED_SEGMENT_IDS = 1000;

export const investigationStateKey = (investigationId: string) =>
  `${INVESTIGATION_STATE_PREFIX}${investigationId}`;

export const windowSegmentKey = (size: number, segment: number, detectionId: string) =>
  `${WINDOW_SEGMENT_PREFIX}${size}/${segment}:${detectionId}`;

export const isInvestigationStateKey = (key: string) => key.startsWith(INVESTIGATION_STATE_PREFIX);

export const isWindowSegmentKey = (key: string) => key.startsWith(WINDOW_SEGMENT_PREFIX);

/** Whether a key of the state topic holds a detection's state (its key is the detection id). */
export const isDetectionStateKey = (key: string) =>
  !isInvestigationStateKey(key) && !isWindowSegmentKey(key);

/** A segment key's parts; a key of the first layout has segments of 1,000 ids. */
export function parseWindowSegmentKey(key: string): {
  size: number;
  segment: number;
  detectionId: string;
} {
  const rest = key.slice(WINDOW_SEGMENT_PREFIX.length);
  const colon = rest.indexOf(':');
  const position = rest.slice(0, colon);
  const slash = position.indexOf('/');
  return {
    size: slash < 0 ? UNSIZED_SEGMENT_IDS : Number(position.slice(0, slash)),
    segment: Number(slash < 0 ? position : position.slice(slash + 1)),
    detectionId: rest.slice(colon + 1),
  };
}
