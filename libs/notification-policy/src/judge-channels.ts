import type {
  AttachedEvents,
  DetectionUpdate,
  DigestEntryDecision,
  EmailDecision,
  EventSummary,
  NotificationChannel,
  WebhookDecision,
} from '@vigil/contracts';
import type { BufferedEvent, ChannelState, DetectionSnapshot } from './detection-state';
import { digestWindow } from './digest-window';
import { detectionNotificationId, digestEntryKey } from './notification-ids';
import type { NotificationSettings } from './notification-settings';

/**
 * Why a channel sends nothing now, in the order the checks are made (the first that applies is
 * the reason): the settings are silenced, the channel is off or has no target, the count did
 * not rise since the channel's last notification, or Threshold mode's threshold is not exceeded.
 */
export type ChannelSkip =
  | { code: 'disabled' }
  | { code: 'silenced_until'; until: number }
  | { code: 'channel_off' }
  | { code: 'no_providers' }
  | { code: 'no_recipients' }
  | {
      code: 'count_not_risen';
      count: number;
      lastNotifiedCount: number;
      lastNotifiedAt: number | null;
    }
  | { code: 'threshold_not_exceeded'; count: number; threshold: number };

/** What one channel does now: its decision and its bookkeeping afterwards, or why not. */
export type ChannelVerdict<D> =
  { fires: true; decision: D; next: ChannelState } | { fires: false; skip: ChannelSkip };

export interface ChannelVerdicts {
  webhook: ChannelVerdict<WebhookDecision>;
  /** An email in Immediate and Threshold modes, a digest entry in Batch mode. */
  email: ChannelVerdict<EmailDecision | DigestEntryDecision>;
}

/**
 * The one place that decides what each channel sends for a detection now (DESIGN §4): `decide`
 * applies it to the state, the dry run reports it. Pure; nothing is changed.
 *
 * A channel fires only when the settings are not silenced, it is enabled with at least one
 * target, the count rose since that channel's last notification, and in Threshold mode the
 * count exceeds the threshold (a missing threshold counts as 0: better an extra notification
 * than a silently dead configuration).
 */
export function judgeChannels(
  state: DetectionSnapshot,
  settings: NotificationSettings,
  now: number,
): ChannelVerdicts {
  const silenced = silenceSkip(settings, now);
  const { webhook, email } = state.channels;

  const webhookSkip =
    silenced ??
    (!settings.webhookEnabled
      ? { code: 'channel_off' as const }
      : settings.webhookProviderIds.length === 0
        ? { code: 'no_providers' as const }
        : countSkip(state, webhook, settings));
  const webhookVerdict: ChannelVerdicts['webhook'] =
    webhookSkip !== null
      ? { fires: false, skip: webhookSkip }
      : {
          fires: true,
          decision: {
            kind: 'webhook',
            channel: 'webhook',
            ...update(state, webhook, 'webhook', settings, now),
            ...attachedEvents(state, webhook, settings.maxEventsPerNotification),
            providerIds: [...settings.webhookProviderIds],
          },
          next: notified(webhook, state.count, now),
        };

  const emailSkip =
    silenced ??
    (!settings.emailEnabled
      ? { code: 'channel_off' as const }
      : settings.recipients.length === 0
        ? { code: 'no_recipients' as const }
        : countSkip(state, email, settings));
  let emailVerdict: ChannelVerdicts['email'];
  if (emailSkip !== null) {
    emailVerdict = { fires: false, skip: emailSkip };
  } else if (settings.frequency === 'batch') {
    const { decision, digest } = digestEntry(state, email, settings, now);
    emailVerdict = {
      fires: true,
      decision,
      next: { ...notified(email, state.count, now), digest },
    };
  } else {
    emailVerdict = {
      fires: true,
      decision: {
        kind: 'email',
        channel: 'email',
        ...update(state, email, 'email', settings, now),
        ...attachedEvents(state, email, settings.maxEventsPerNotification),
        recipients: [...settings.recipients],
      },
      // The digest window is kept: if the mode goes back to Batch within the same window, the
      // entry then covers the whole window again (some events may be reported twice, none lost).
      next: notified(email, state.count, now),
    };
  }
  return { webhook: webhookVerdict, email: emailVerdict };
}

/** Why nothing is sent while the settings are silenced, or null when they are not. */
function silenceSkip(settings: NotificationSettings, now: number): ChannelSkip | null {
  const { silence } = settings;
  switch (silence.kind) {
    case 'none':
      return null;
    case 'disabled':
      return { code: 'disabled' };
    case 'snoozed':
      return now < silence.until ? { code: 'silenced_until', until: silence.until } : null;
  }
}

function countSkip(
  state: DetectionSnapshot,
  channel: ChannelState,
  settings: NotificationSettings,
): ChannelSkip | null {
  if (state.count <= channel.lastNotifiedCount) {
    return {
      code: 'count_not_risen',
      count: state.count,
      lastNotifiedCount: channel.lastNotifiedCount,
      lastNotifiedAt: channel.lastNotifiedAt,
    };
  }
  if (settings.frequency !== 'threshold') return null;
  const threshold = settings.threshold ?? 0;
  return state.count > threshold
    ? null
    : { code: 'threshold_not_exceeded', count: state.count, threshold };
}

/** A channel once it has notified: nothing is new to it any more. */
function notified(channel: ChannelState, count: number, now: number): ChannelState {
  return {
    ...channel,
    lastNotifiedCount: count,
    lastNotifiedAt: now,
    newMaxRiskScore: null,
    newSources: [],
  };
}

function update(
  state: DetectionSnapshot,
  channel: ChannelState,
  name: NotificationChannel,
  settings: NotificationSettings,
  now: number,
): DetectionUpdate {
  return {
    notificationId: detectionNotificationId(state.detectionId, name, state.count),
    detectionId: state.detectionId,
    detectionName: state.detectionName,
    previousCount: channel.lastNotifiedCount,
    currentCount: state.count,
    since: channel.lastNotifiedAt ?? state.firstEventAt,
    eventCount: state.count - channel.lastNotifiedCount,
    userCount: state.userCount,
    affectedUsers: state.users
      .slice(0, settings.maxEventsPerNotification)
      .map((user) => ({ ...user })),
    decidedAt: now,
    maxRiskScore: channel.newMaxRiskScore,
    sources: [...channel.newSources],
  };
}

/**
 * The newest new events by arrival (the last N distinct events received since the channel's last
 * notification), presented in chronological order (timestamp, then id).
 */
function attachedEvents(
  state: DetectionSnapshot,
  channel: ChannelState,
  max: number,
): AttachedEvents {
  const fresh = state.pendingEvents.filter((event) => event.seq > channel.lastNotifiedCount);
  const events = fresh
    .slice(Math.max(0, fresh.length - max))
    .sort(byTimeThenId)
    .map(toSummary);
  return { events, truncatedCount: state.count - channel.lastNotifiedCount - events.length };
}

function digestEntry(
  state: DetectionSnapshot,
  email: ChannelState,
  settings: NotificationSettings,
  now: number,
): { decision: DigestEntryDecision; digest: NonNullable<ChannelState['digest']> } {
  const { windowStart, windowEnd } = digestWindow(now, settings.batchWindowMinutes);
  const sameWindow =
    email.digest !== null &&
    email.digest.windowStart === windowStart &&
    email.digest.windowEnd === windowEnd;
  const digest =
    sameWindow && email.digest
      ? email.digest
      : {
          windowStart,
          windowEnd,
          baseCount: email.lastNotifiedCount,
          baseAt: email.lastNotifiedAt,
        };
  const decision: DigestEntryDecision = {
    kind: 'digest-entry',
    channel: 'email',
    ...update(state, email, 'email', settings, now),
    recipients: [...settings.recipients],
    windowStart,
    windowEnd,
    entryKey: digestEntryKey(state.detectionId, windowStart, windowEnd),
    windowNewCount: state.count - digest.baseCount,
    windowBaseCount: digest.baseCount,
    windowSince: digest.baseAt ?? state.firstEventAt,
  };
  return { decision, digest };
}

function byTimeThenId(a: EventSummary, b: EventSummary): number {
  return a.timestamp - b.timestamp || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Built field by field: a rest pattern copies through a slow generic path, once per event sent. */
function toSummary(event: BufferedEvent): EventSummary {
  return {
    id: event.id,
    personName: event.personName,
    personEmail: event.personEmail,
    description: event.description,
    timestamp: event.timestamp,
  };
}
