export type DeliveryChannel = 'webhook' | 'email';

/** How long a claimed delivery of each channel stays leased before another worker may send it. */
export type LeaseDurations = Record<DeliveryChannel, number>;
export type DeliveryStatus = 'pending' | 'delivering' | 'delivered' | 'dead' | 'skipped';
/**
 * What a delivery carries: a notification about a detection or an investigation, a digest, a
 * fallback (a delivery that died, sent to the fallback destination) or a notice to the admins
 * (a provider disabled for failing).
 */
export type DeliveryKind = 'detection' | 'investigation' | 'digest' | 'fallback' | 'notice';
/** Why a delivery was recorded as skipped: its provider's filter, or the provider disabled. */
export type SkipCause = 'filter' | 'disabled';

/** A delivery to create: its payload is already rendered (render apart from send). */
export interface NewDelivery {
  id: string;
  notificationId: string;
  kind: DeliveryKind;
  channel: DeliveryChannel;
  /** The provider id (webhook) or the recipient address (email). */
  target: string;
  /** The detection or investigation the notification is about; null for a digest. */
  subjectId: string | null;
  /** JSON-serializable; stored as rendered and sent as stored on every attempt. */
  payload: unknown;
  /** The payload already serialized (a destination's rendered body): stored as it is. */
  payloadJson?: string;
  /**
   * Set when the target's filter holds the notification back: the delivery is recorded as
   * `skipped` with this reason and never sent.
   */
  skippedBecause?: string;
  /** Why it was skipped: the filter when left out. */
  skipCause?: SkipCause;
  /**
   * Set when the process creating the delivery sends it itself: the row goes in already leased
   * for this many milliseconds, as a claim would have left it, and is never claimed.
   */
  leaseMs?: number;
}

/** A delivery a worker has leased for one attempt. */
export interface ClaimedDelivery {
  id: string;
  notificationId: string;
  kind: DeliveryKind;
  channel: DeliveryChannel;
  target: string;
  /** The payload's JSON text exactly as stored. */
  payload: string;
  /** Attempts made before this one. */
  attemptCount: number;
  /** Failed attempts since creation or the last resend. */
  seriesFailures: number;
}

export interface DeliveryAttempt {
  attempt: number;
  attemptedAt: Date;
  /** The HTTP status of a webhook response; null for a network error or an email. */
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export type AttemptResult =
  { status: 'delivered' } | { status: 'retry'; delayMs: number } | { status: 'dead' };

/** What the web application shows of a delivery. */
export interface DeliveryView {
  id: string;
  notificationId: string;
  kind: DeliveryKind;
  channel: DeliveryChannel;
  target: string;
  subjectId: string | null;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  /** Set on a skipped delivery: held back by the provider's filter, or the provider disabled. */
  skipCause?: SkipCause;
  createdAt: Date;
  updatedAt: Date;
  deliveredAt: Date | null;
}

/** A delivery with how its newest attempt went: null before the first. */
export interface DeliveryWithLastAttempt {
  delivery: DeliveryView;
  lastAttempt: DeliveryAttempt | null;
}

/** A delivery with every attempt, oldest first. */
export interface DeliveryWithAttempts {
  delivery: DeliveryView;
  attempts: DeliveryAttempt[];
}

/** Which deliveries to list; every field left out matches all. */
export interface DeliveryFilter {
  status?: DeliveryStatus;
  notificationId?: string;
  /** The detection or investigation id the deliveries are about. */
  subjectId?: string;
  channel?: DeliveryChannel;
  /** A webhook provider id or an email recipient. */
  target?: string;
  /** At most this many, 100 when left out. */
  limit?: number;
}

/** A Batch digest line to store until its window closes. */
export interface DigestEntry {
  entryKey: string;
  recipient: string;
  windowStart: number;
  windowEnd: number;
  detectionId: string;
  detectionName: string;
  newCount: number;
  currentCount: number;
  userCount: number;
  affectedUsers: string[];
}

/** The open entries of one recipient and window, ready to become one digest email. */
export interface DigestGroup {
  recipient: string;
  windowStart: number;
  windowEnd: number;
  /** 0 for the window's digest; 1, 2... for entries that arrived after it was sent. */
  sequence: number;
  entries: DigestEntry[];
}
