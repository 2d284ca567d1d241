import type { NotificationSettings } from './notification-settings';

/** True while a permanent disable or a snooze that has not yet ended (now < until) is in force. */
export function isSilenced(settings: Pick<NotificationSettings, 'silence'>, now: number): boolean {
  const { silence } = settings;
  switch (silence.kind) {
    case 'none':
      return false;
    case 'disabled':
      return true;
    case 'snoozed':
      return now < silence.until;
  }
}
