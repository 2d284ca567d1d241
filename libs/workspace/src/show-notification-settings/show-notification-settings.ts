import { type NotificationSettingsStore, type WebhookProviderView } from '@vigil/control-plane';
import { type NotificationSettings } from '@vigil/notification-policy';
import { type WebhookProviders } from '../ports/webhook-providers';

export interface NotificationSettingsOverview {
  readonly settings: NotificationSettings;
  /** Every enrolled provider, the ones the settings may select. */
  readonly providers: readonly WebhookProviderView[];
}

/** The global notification settings with the providers they can select (Settings → Notifications). */
export class ShowNotificationSettings {
  constructor(
    private readonly settings: NotificationSettingsStore,
    private readonly providers: WebhookProviders,
  ) {}

  async execute(): Promise<NotificationSettingsOverview> {
    const [settings, providers] = await Promise.all([
      this.settings.getGlobal(),
      this.providers.list(),
    ]);
    return { settings, providers };
  }
}
