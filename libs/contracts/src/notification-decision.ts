/** What a notification says about one event (SPEC §6.2 metadata.events[] plus the email). */
export interface EventSummary {
  id: string;
  personName: string;
  personEmail: string;
  description: string;
  /** When the event happened, epoch ms. */
  timestamp: number;
}

/** A person a detection's events name. */
export interface AffectedUser {
  /** Trimmed and lowercased: the identity used to count distinct users. */
  email: string;
  name: string;
}

export type NotificationChannel = 'webhook' | 'email';

/** What every detection decision says (SPEC §6.2 metadata, in camelCase). */
export interface DetectionUpdate {
  /** Deterministic: derived from (detectionId, channel, currentCount), so a replay gives the same id. */
  notificationId: string;
  detectionId: string;
  detectionName: string;
  /** The channel's lastNotifiedCount before this decision (0 before the first). */
  previousCount: number;
  currentCount: number;
  /** The channel's last notification time, or the detection's first event time before the first. */
  since: number;
  /** currentCount - previousCount. */
  eventCount: number;
  /** Exact number of distinct affected users. */
  userCount: number;
  /** The detection's affected users in first-seen order, at most maxEventsPerNotification. */
  affectedUsers: AffectedUser[];
  /** `now` of the decision. */
  decidedAt: number;
  /**
   * The highest risk score among the new events (previousCount + 1 .. currentCount, all of
   * them, not only those attached); null when none is known (events counted before the
   * processor kept scores). Not part of the SPEC payload: chat and paging targets use it.
   */
  maxRiskScore: number | null;
  /** The distinct sources of the new events, in first-seen order (not part of the SPEC payload). */
  sources: string[];
}

/** The newest new events (by arrival), in chronological order, and how many were left out. */
export interface AttachedEvents {
  events: EventSummary[];
  /** eventCount - events.length. */
  truncatedCount: number;
}

/** One webhook notification; the notifier sends it to every listed provider. */
export interface WebhookDecision extends DetectionUpdate, AttachedEvents {
  kind: 'webhook';
  channel: 'webhook';
  providerIds: string[];
}

/** One email about one detection to all recipients (Immediate and Threshold modes). */
export interface EmailDecision extends DetectionUpdate, AttachedEvents {
  kind: 'email';
  channel: 'email';
  recipients: string[];
}

/**
 * A detection's line in the Batch digest of window [windowStart, windowEnd). A later entry for the
 * same window carries the same entryKey and supersedes the earlier one (keep the one with the
 * highest currentCount: replays may deliver an older one late). previousCount/eventCount are the
 * delta since this channel's previous decision, like every decision; windowNewCount is what the
 * digest shows: new events since the count at the window's start.
 */
export interface DigestEntryDecision extends DetectionUpdate {
  kind: 'digest-entry';
  channel: 'email';
  recipients: string[];
  windowStart: number;
  windowEnd: number;
  entryKey: string;
  windowNewCount: number;
  /** The channel's count and time at the window's start (what the digest reports "since"). */
  windowBaseCount: number;
  windowSince: number;
}

export type NotificationDecision = WebhookDecision | EmailDecision | DigestEntryDecision;
