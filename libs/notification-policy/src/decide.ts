import type { NotificationDecision } from '@vigil/contracts';
import type { ChannelState, DetectionState } from './detection-state';
import { isSilenced } from './is-silenced';
import { judgeChannels } from './judge-channels';
import type { NotificationSettings } from './notification-settings';

export interface DecideResult {
  state: DetectionState;
  decisions: NotificationDecision[];
}

/**
 * Decides what to send for one detection now (DESIGN §4) and records it in the state. Called
 * after each recalculation and from timers (snooze end) with no new events; calling it again at
 * the same `now` sends nothing. What fires, and why a channel does not, is judgeChannels' call
 * (the dry run reports the same verdicts).
 *
 * A channel that does not fire keeps its bookkeeping, so its next notification reports
 * everything since its last one: nothing is lost to a silence, a disabled channel or an unmet
 * threshold.
 */
export function decide(
  state: DetectionState,
  settings: NotificationSettings,
  now: number,
): DecideResult {
  if (isSilenced(settings, now)) return { state, decisions: [] };

  const { webhook, email } = judgeChannels(state, settings, now);
  const decisions: NotificationDecision[] = [];
  if (webhook.fires) decisions.push(webhook.decision);
  if (email.fires) decisions.push(email.decision);

  if (decisions.length === 0) return { state: prunePending(state, settings), decisions };
  const channels = {
    webhook: webhook.fires ? webhook.next : state.channels.webhook,
    email: email.fires ? email.next : state.channels.email,
  };
  return { state: prunePending({ ...state, channels }, settings), decisions };
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
