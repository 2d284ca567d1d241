import { type AuditContext, type NotificationSettingsStore } from '@vigil/control-plane';
import {
  disableDetection,
  snoozeDetection,
  unsilenceDetection,
  type DetectionNotificationConfig,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { type EventReadModel } from '@vigil/search';
import { requireDetection } from '../notification-settings/require-detection';
import { detectionSettingsChanged } from '../notification-settings/settings-audit';
import {
  silenceOutcomeOf,
  type SilenceChoice,
  type SilenceOutcome,
} from '../notification-settings/silence-choice';

export interface SilenceDetectionCommand {
  readonly detectionId: string;
  readonly choice: SilenceChoice;
  /** When a snooze starts (epoch ms). */
  readonly now: number;
}

/**
 * Snoozes, disables or resumes one detection's notifications (SPEC.md §3.2): silencing an
 * inheriting detection copies the global settings into custom ones, which stay afterwards.
 */
export class SilenceDetection {
  constructor(
    private readonly readModel: Pick<EventReadModel, 'detectionExists'>,
    private readonly settings: NotificationSettingsStore,
  ) {}

  async execute(command: SilenceDetectionCommand, audit: AuditContext): Promise<SilenceOutcome> {
    await requireDetection(this.readModel, command.detectionId);
    const [config, global] = await Promise.all([
      this.settings.getDetectionConfig(command.detectionId),
      this.settings.getGlobal(),
    ]);
    const after = silenced(config, global, command);
    const outcome = silenceOutcomeOf(command.choice);
    await this.settings.saveDetectionConfig(
      command.detectionId,
      after,
      detectionSettingsChanged(audit, command.detectionId, outcome, config, after),
    );
    return outcome;
  }
}

function silenced(
  config: DetectionNotificationConfig,
  global: NotificationSettings,
  { choice, now }: SilenceDetectionCommand,
): DetectionNotificationConfig {
  if (choice === 'disable') return disableDetection(config, global);
  if (choice === 'resume') return unsilenceDetection(config);
  return snoozeDetection(config, global, choice, now);
}
