import { type AuditContext, type NotificationSettingsStore } from '@vigil/control-plane';
import { setUseCustom } from '@vigil/notification-policy';
import { type EventReadModel } from '@vigil/search';
import { requireDetection } from '../notification-settings/require-detection';
import { detectionSettingsChanged } from '../notification-settings/settings-audit';

/**
 * Turns "Use custom notification configuration" of a detection on (starting from a copy of the
 * global settings) or off (following them again), SPEC.md §3.2.
 */
export class ToggleCustomSettings {
  constructor(
    private readonly readModel: Pick<EventReadModel, 'detectionExists'>,
    private readonly settings: NotificationSettingsStore,
  ) {}

  async execute(
    command: { readonly detectionId: string; readonly useCustom: boolean },
    audit: AuditContext,
  ): Promise<void> {
    const { detectionId, useCustom } = command;
    await requireDetection(this.readModel, detectionId);
    const [config, global] = await Promise.all([
      this.settings.getDetectionConfig(detectionId),
      this.settings.getGlobal(),
    ]);
    const after = setUseCustom(config, useCustom, global);
    const change = useCustom ? 'custom_on' : 'custom_off';
    await this.settings.saveDetectionConfig(
      detectionId,
      after,
      detectionSettingsChanged(audit, detectionId, change, config, after),
    );
  }
}
