import { isSilenced, type NotificationSilence } from '@vigil/notification-policy';
import { formatDate } from '../views/format-date';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `6 d 23 h`, `23 h 59 min`, `59 min`, `less than 1 min`: whole units, rounded down. */
export function formatTimeLeft(ms: number): string {
  if (ms < MINUTE) return 'less than 1 min';
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  return `${minutes} min`;
}

export type SilenceStatus =
  | { kind: 'on' }
  | { kind: 'disabled'; summary: string }
  | { kind: 'snoozed'; until: Date; summary: string };

/** What the page says about silencing now; a snooze that has ended reads as on. */
export function silenceStatus(silence: NotificationSilence, now: number): SilenceStatus {
  if (!isSilenced({ silence }, now)) return { kind: 'on' };
  if (silence.kind === 'snoozed') {
    const until = new Date(silence.until);
    return {
      kind: 'snoozed',
      until,
      summary: `Snoozed — ${formatTimeLeft(silence.until - now)} left, until ${formatDate(until)}`,
    };
  }
  return { kind: 'disabled', summary: 'Disabled until resumed' };
}
