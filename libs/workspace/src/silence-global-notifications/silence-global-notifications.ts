import { type AuditContext, type NotificationSettingsStore } from '@vigil/control-plane';
import {
  disableGlobal,
  snoozeGlobal,
  unsilenceGlobal,
  type NotificationSettings,
} from '@vigil/notification-policy';
import {
  silenceOutcomeOf,
  type SilenceChoice,
  type SilenceOutcome,
} from '../notification-settings/silence-choice';
import { globalSettingsChanged } from '../notification-settings/settings-audit';

export interface SilenceGlobalNotificationsCommand {
  readonly choice: SilenceChoice;
  /** When a snooze starts (epoch ms). */
  readonly now: number;
}

/**
 * Snoozes, disables or resumes the global notifications (SPEC.md §6.1 rule 6). Detections with
 * their own settings are not affected.
 */
export class SilenceGlobalNotifications {
  constructor(private readonly settings: NotificationSettingsStore) {}

  async execute(
    command: SilenceGlobalNotificationsCommand,
    audit: AuditContext,
  ): Promise<SilenceOutcome> {
    const current = await this.settings.getGlobal();
    const after = silenced(current, command);
    const outcome = silenceOutcomeOf(command.choice);
    await this.settings.saveGlobal(after, globalSettingsChanged(audit, outcome, current, after));
    return outcome;
  }
}

function silenced(
  current: NotificationSettings,
  { choice, now }: SilenceGlobalNotificationsCommand,
): NotificationSettings {
  if (choice === 'disable') return disableGlobal(current);
  if (choice === 'resume') return unsilenceGlobal(current);
  return snoozeGlobal(current, choice, now);
}
