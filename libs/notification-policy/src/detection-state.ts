import type { AffectedUser, EventSummary } from '@vigil/contracts';
import { MAX_MAX_EVENTS_PER_NOTIFICATION } from './notification-settings';

/** One event of a detection as the stream processor hands it over. */
export interface DetectionEvent extends EventSummary {
  detectionId: string;
  detectionName: string;
  riskScore: number;
  /** The connected system the event came from (e.g. `okta`). */
  source: string;
}

/** An event not yet reported on every channel; `seq` is its rank among distinct events (1-based). */
export interface BufferedEvent extends EventSummary {
  seq: number;
}

/** The Batch digest window the email channel last produced an entry for. */
export interface DigestWindowState {
  windowStart: number;
  windowEnd: number;
  /** The channel's lastNotifiedCount / lastNotifiedAt when this window's first entry was made. */
  baseCount: number;
  baseAt: number | null;
}

/** Per channel bookkeeping: each channel reports "new since my last notification" independently. */
export interface ChannelState {
  lastNotifiedCount: number;
  /** `now` of the channel's last decision; null before the first one. */
  lastNotifiedAt: number | null;
  /** Email in Batch mode only; always null for the webhook channel. */
  digest: DigestWindowState | null;
  /**
   * The highest risk score among the events counted since the channel's last notification,
   * kept as they arrive because the buffer holds only the newest of them; null when there are
   * none, or when they were counted by a processor that did not keep scores.
   */
  newMaxRiskScore: number | null;
  /** The distinct sources of those events in first-seen order, at most MAX_SOURCES_KEPT. */
  newSources: string[];
}

/**
 * Sources are the connected systems events come from (a handful per workspace): the bound only
 * keeps a state small if a connector sends nonsense in the field.
 */
export const MAX_SOURCES_KEPT = 100;

/**
 * Everything the processor keeps per detection (JSON-serializable: it is the value of the
 * compacted state topic). Counts are exact; lists are bounded (see DetectionStateOptions).
 */
export interface DetectionState {
  schemaVersion: 1;
  detectionId: string;
  detectionName: string;
  /** Number of distinct event ids seen (ids are deduplicated within `recentEventIds`). */
  count: number;
  /** Smallest / largest `timestamp` among counted events. */
  firstEventAt: number;
  lastEventAt: number;
  /** Exact number of distinct affected users (by lowercased email). */
  userCount: number;
  /** The first `userListLimit` distinct users, in the order they first appeared. */
  users: AffectedUser[];
  /** 64-bit hashes (hex) of users beyond the list, so `userCount` stays exact without keeping them. */
  overflowUserHashes: string[];
  /**
   * The last `dedupWindowSize` distinct event ids, oldest first; or only the newest of them when
   * the caller keeps the window apart (see applyEvents' `windowIds`).
   */
  recentEventIds: string[];
  /**
   * The most recently received events not yet reported on every channel, oldest first (by seq),
   * at most `eventBufferLimit` of them.
   */
  pendingEvents: BufferedEvent[];
  channels: { webhook: ChannelState; email: ChannelState };
}

/**
 * What the decisions read of a detection's state: all of it but the de-duplication window and
 * the hashes of users beyond the list, which only the processor's folding of events needs. The
 * detections read model keeps this much (see the dry run).
 */
export type DetectionSnapshot = Omit<DetectionState, 'recentEventIds' | 'overflowUserHashes'>;

export interface DetectionStateOptions {
  /** How many recent distinct event ids are remembered for de-duplication. */
  dedupWindowSize: number;
  /** How many not-yet-notified event summaries are kept (the largest payload cap by default). */
  eventBufferLimit: number;
  /** How many affected users are kept with their names. */
  userListLimit: number;
}

/**
 * 10,000 ids covers connector retries (which resend their last batch) with a wide margin while
 * keeping the state record small; an id older than the window would be counted again.
 */
export const DEFAULT_DETECTION_STATE_OPTIONS: Readonly<DetectionStateOptions> = Object.freeze({
  dedupWindowSize: 10000,
  eventBufferLimit: MAX_MAX_EVENTS_PER_NOTIFICATION,
  userListLimit: MAX_MAX_EVENTS_PER_NOTIFICATION,
});

export function emptyChannelState(): ChannelState {
  return {
    lastNotifiedCount: 0,
    lastNotifiedAt: null,
    digest: null,
    newMaxRiskScore: null,
    newSources: [],
  };
}
