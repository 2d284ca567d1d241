import { decide } from './decide';
import type { DetectionState } from './detection-state';
import type { NotificationSettings } from './notification-settings';

/**
 * When a timer must call `decide` with no new events, or null when nothing is waiting on time.
 *
 * The only thing time alone changes is the end of a snooze: if something would be sent once it
 * ends (a channel's count rose during the silence), the answer is the snooze's `until`. If
 * something could be sent right now (e.g. the settings just changed), the answer is `now`.
 * A permanent disable has no end; lifting it is a settings change, after which the caller
 * calls decide (or nextWakeUp) again. Digest windows need no timer here: the notifier closes them.
 */
export function nextWakeUp(
  state: DetectionState,
  settings: NotificationSettings,
  now: number,
): number | null {
  const { silence } = settings;
  const at = silence.kind === 'snoozed' && silence.until > now ? silence.until : now;
  if (silence.kind === 'disabled') return null;
  return decide(state, settings, at).decisions.length > 0 ? at : null;
}
