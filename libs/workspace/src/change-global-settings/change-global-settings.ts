import { type AuditContext, type NotificationSettingsStore } from '@vigil/control-plane';
import { globalSettingsChanged } from '../notification-settings/settings-audit';
import { checkSettingsDraft, type SettingsDraft } from '../notification-settings/settings-draft';
import { invalidSettings, saveSettings } from '../notification-settings/save-settings';
import { type WebhookProviders } from '../ports/webhook-providers';

/**
 * Replaces the global notification settings (SPEC.md §2.5), keeping their silence. Refused
 * settings are a WorkspaceError `invalid_settings` naming every offending field. The audit event
 * (before and after) is saved in the transaction of the change.
 */
export class ChangeGlobalSettings {
  constructor(
    private readonly settings: NotificationSettingsStore,
    private readonly providers: WebhookProviders,
  ) {}

  async execute(command: { readonly draft: SettingsDraft }, audit: AuditContext): Promise<void> {
    const [current, providers] = await Promise.all([
      this.settings.getGlobal(),
      this.providers.list(),
    ]);
    const checked = checkSettingsDraft(
      command.draft,
      current.silence,
      providers.map((p) => p.id),
    );
    if (!checked.ok) throw invalidSettings(checked.problems);
    const event = globalSettingsChanged(audit, 'settings', current, checked.settings);
    await saveSettings(() => this.settings.saveGlobal(checked.settings, event));
  }
}
