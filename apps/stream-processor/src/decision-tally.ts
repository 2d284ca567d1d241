import type { NotificationChannel } from '@vigil/contracts';
import type { NotificationFrequency } from '@vigil/notification-policy';

/** Told how many decisions of each frequency mode and channel a committed batch made. */
export type DecisionCounter = (
  mode: NotificationFrequency,
  channel: NotificationChannel,
  count: number,
) => void;

/** The decisions of one batch, counted by mode and channel, reported once it commits. */
export class DecisionTally {
  private readonly counts = new Map<string, number>();

  add(mode: NotificationFrequency, decisions: readonly { channel: NotificationChannel }[]): void {
    for (const { channel } of decisions) {
      const key = `${mode}:${channel}`;
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    }
  }

  reportTo(counter: DecisionCounter | undefined): void {
    if (!counter) return;
    for (const [key, count] of this.counts) {
      const [mode, channel] = key.split(':') as [NotificationFrequency, NotificationChannel];
      counter(mode, channel, count);
    }
  }
}
