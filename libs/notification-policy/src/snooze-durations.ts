/** The snooze lengths SPEC §2.5 offers, in milliseconds. */
export const SNOOZE_DURATIONS = Object.freeze({
  '1h': 60 * 60 * 1000,
  '24h': 24 * 60 * 60 * 1000,
  '7d': 7 * 24 * 60 * 60 * 1000,
} as const);

export type SnoozeDuration = keyof typeof SNOOZE_DURATIONS;

export function isSnoozeDuration(value: unknown): value is SnoozeDuration {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(SNOOZE_DURATIONS, value);
}
