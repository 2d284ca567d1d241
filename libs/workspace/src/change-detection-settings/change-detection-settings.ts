import { type AuditContext, type NotificationSettingsStore } from '@vigil/control-plane';
import { type EventReadModel } from '@vigil/search';
import { requireDetection } from '../notification-settings/require-detection';
import { invalidSettings, saveSettings } from '../notification-settings/save-settings';
import { detectionSettingsChanged } from '../notification-settings/settings-audit';
import { checkSettingsDraft, type SettingsDraft } from '../notification-settings/settings-draft';
import { type WebhookProviders } from '../ports/webhook-providers';

/**
 * `saved`, or `not_custom` when the detection follows the global settings (its toggle was
 * turned off meanwhile, in another tab): there are no custom settings to replace then.
 */
export type ChangeDetectionSettingsOutcome = 'saved' | 'not_custom';

/**
 * Replaces the custom notification settings of a detection (SPEC.md §2.5), keeping their
 * silence. Refused settings are a WorkspaceError `invalid_settings` naming every field.
 */
export class ChangeDetectionSettings {
  constructor(
    private readonly readModel: Pick<EventReadModel, 'detectionExists'>,
    private readonly settings: NotificationSettingsStore,
    private readonly providers: WebhookProviders,
  ) {}

  async execute(
    command: { readonly detectionId: string; readonly draft: SettingsDraft },
    audit: AuditContext,
  ): Promise<ChangeDetectionSettingsOutcome> {
    const { detectionId, draft } = command;
    await requireDetection(this.readModel, detectionId);
    const [config, providers] = await Promise.all([
      this.settings.getDetectionConfig(detectionId),
      this.providers.list(),
    ]);
    if (!config.useCustom || config.custom === null) return 'not_custom';
    const checked = checkSettingsDraft(
      draft,
      config.custom.silence,
      providers.map((p) => p.id),
    );
    if (!checked.ok) throw invalidSettings(checked.problems);
    const after = { useCustom: true, custom: checked.settings };
    const event = detectionSettingsChanged(audit, detectionId, 'settings', config, after);
    await saveSettings(() => this.settings.saveDetectionConfig(detectionId, after, event));
    return 'saved';
  }
}
