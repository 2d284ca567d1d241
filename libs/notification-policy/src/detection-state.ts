import { MAX_MAX_EVENTS_PER_NOTIFICATION } from './notification-settings';

/** What a notification says about one event (SPEC §6.2 metadata.events[] plus the email). */
export interface EventSummary {
  id: string;
  personName: string;
  personEmail: string;
  description: string;
  /** When the event happened, epoch ms. */
  timestamp: number;
}

/** One event of a detection as the stream processor hands it over. */
export interface DetectionEvent extends EventSummary {
  detectionId: string;
  detectionName: string;
}

export interface AffectedUser {
  /** Trimmed and lowercased: the identity used to count distinct users. */
  email: string;
  name: string;
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
}

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
  /** The last `dedupWindowSize` distinct event ids, oldest first. */
  recentEventIds: string[];
  /**
   * The most recently received events not yet reported on every channel, oldest first (by seq),
   * at most `eventBufferLimit` of them.
   */
  pendingEvents: BufferedEvent[];
  channels: { webhook: ChannelState; email: ChannelState };
}

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
  return { lastNotifiedCount: 0, lastNotifiedAt: null, digest: null };
}
