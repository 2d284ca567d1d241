import type { BufferedEvent, ChannelState, DetectionState, EventSummary } from './detection-state';
import { digestWindow } from './digest-window';
import { isSilenced } from './is-silenced';
import type {
  AttachedEvents,
  DetectionUpdate,
  DigestEntryDecision,
  EmailDecision,
  NotificationChannel,
  NotificationDecision,
  WebhookDecision,
} from './notification-decision';
import { detectionNotificationId, digestEntryKey } from './notification-ids';
import type { NotificationSettings } from './notification-settings';

export interface DecideResult {
  state: DetectionState;
  decisions: NotificationDecision[];
}

/**
 * Decides what to send for one detection now (DESIGN §4). Called after each recalculation and
 * from timers (snooze end) with no new events; calling it again at the same `now` sends nothing.
 *
 * A channel fires only when it is enabled with at least one target, the settings are not
 * silenced, the count rose since that channel's last notification, and in Threshold mode the
 * count exceeds the threshold (a missing threshold counts as 0: better an extra notification than
 * a silently dead configuration). A channel that does not fire keeps its bookkeeping, so its next
 * notification reports everything since its last one: nothing is lost to a silence, a disabled
 * channel or an unmet threshold.
 */
export function decide(
  state: DetectionState,
  settings: NotificationSettings,
  now: number,
): DecideResult {
  if (isSilenced(settings, now)) return { state, decisions: [] };

  const decisions: NotificationDecision[] = [];
  let { webhook, email } = state.channels;

  if (
    settings.webhookEnabled &&
    settings.webhookProviderIds.length > 0 &&
    fires(state, webhook, settings)
  ) {
    const decision: WebhookDecision = {
      kind: 'webhook',
      channel: 'webhook',
      ...update(state, webhook, 'webhook', settings, now),
      ...attachedEvents(state, webhook, settings.maxEventsPerNotification),
      providerIds: [...settings.webhookProviderIds],
    };
    decisions.push(decision);
    webhook = { ...webhook, lastNotifiedCount: state.count, lastNotifiedAt: now };
  }

  if (settings.emailEnabled && settings.recipients.length > 0 && fires(state, email, settings)) {
    if (settings.frequency === 'batch') {
      const { decision, digest } = digestEntry(state, email, settings, now);
      decisions.push(decision);
      email = { lastNotifiedCount: state.count, lastNotifiedAt: now, digest };
    } else {
      const decision: EmailDecision = {
        kind: 'email',
        channel: 'email',
        ...update(state, email, 'email', settings, now),
        ...attachedEvents(state, email, settings.maxEventsPerNotification),
        recipients: [...settings.recipients],
      };
      decisions.push(decision);
      // The digest window is kept: if the mode goes back to Batch within the same window, the
      // entry then covers the whole window again (some events may be reported twice, none lost).
      email = { ...email, lastNotifiedCount: state.count, lastNotifiedAt: now };
    }
  }

  if (decisions.length === 0) return { state: prunePending(state, settings), decisions };
  return {
    state: prunePending({ ...state, channels: { webhook, email } }, settings),
    decisions,
  };
}

/**
 * Keeps only the buffered events a notification can still attach, so a detection's state stays
 * bounded: a channel attaches at most the newest `maxEventsPerNotification` events since its
 * last notification, and events every sending channel has reported are done. A channel that
 * cannot send (off, or without targets) while another one sends does not hold events back: when
 * it is turned on again, its first notification still counts everything since its last one, and
 * attaches the newest events that are left.
 */
function prunePending(state: DetectionState, settings: NotificationSettings): DetectionState {
  const { webhook, email } = state.channels;
  const sending = [
    settings.webhookEnabled && settings.webhookProviderIds.length > 0 ? webhook : null,
    settings.emailEnabled && settings.recipients.length > 0 ? email : null,
  ].filter((channel): channel is ChannelState => channel !== null);
  const watched = sending.length > 0 ? sending : [webhook, email];
  const reported = Math.min(...watched.map((channel) => channel.lastNotifiedCount));
  const pending = state.pendingEvents;
  let first = 0;
  while (first < pending.length && pending[first].seq <= reported) first += 1;
  first = Math.max(first, pending.length - settings.maxEventsPerNotification);
  return first === 0 ? state : { ...state, pendingEvents: pending.slice(first) };
}

function fires(
  state: DetectionState,
  channel: ChannelState,
  settings: NotificationSettings,
): boolean {
  if (state.count <= channel.lastNotifiedCount) return false;
  if (settings.frequency !== 'threshold') return true;
  return state.count > (settings.threshold ?? 0);
}

function update(
  state: DetectionState,
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
  };
}

/**
 * The newest new events by arrival (the last N distinct events received since the channel's last
 * notification), presented in chronological order (timestamp, then id).
 */
function attachedEvents(state: DetectionState, channel: ChannelState, max: number): AttachedEvents {
  const fresh = state.pendingEvents.filter((event) => event.seq > channel.lastNotifiedCount);
  const events = fresh
    .slice(Math.max(0, fresh.length - max))
    .sort(byTimeThenId)
    .map(toSummary);
  return { events, truncatedCount: state.count - channel.lastNotifiedCount - events.length };
}

function digestEntry(
  state: DetectionState,
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
