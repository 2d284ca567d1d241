import { isSnoozeDuration, type SnoozeDuration } from '@vigil/notification-policy';

/** How a person silences notifications (SPEC.md §2.5): a snooze, a permanent disable, or resume. */
export type SilenceChoice = SnoozeDuration | 'disable' | 'resume';

/** What a silence choice did, as the pages announce it. */
export type SilenceOutcome = 'snoozed' | 'disabled' | 'resumed';

export function isSilenceChoice(value: unknown): value is SilenceChoice {
  return isSnoozeDuration(value) || value === 'disable' || value === 'resume';
}

export function silenceOutcomeOf(choice: SilenceChoice): SilenceOutcome {
  if (choice === 'disable') return 'disabled';
  if (choice === 'resume') return 'resumed';
  return 'snoozed';
}
