import { InMemorySettingsStore } from '../testing/in-memory-settings-store';
import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { ShowNotificationSettings } from './show-notification-settings';

describe('ShowNotificationSettings', () => {
  it('shows the global settings with every enrolled provider', async () => {
    const settings = new InMemorySettingsStore();
    const providers = new InMemoryWebhookProviders();
    providers.add('SOAR');
    await expect(new ShowNotificationSettings(settings, providers).execute()).resolves.toEqual({
      settings: settings.global,
      providers: providers.providers,
    });
  });
});
