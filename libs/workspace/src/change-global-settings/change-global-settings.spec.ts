import { aSettingsDraft as aDraft } from '../testing/a-settings-draft';
import { InMemorySettingsStore } from '../testing/in-memory-settings-store';
import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { WorkspaceError } from '../workspace-error';
import { ChangeGlobalSettings } from './change-global-settings';
import { anAuditContext } from '../testing/in-memory-audit-trail';

describe('ChangeGlobalSettings', () => {
  it('saves the draft, keeping the global silence', async () => {
    const settings = new InMemorySettingsStore();
    settings.global = { ...settings.global, silence: { kind: 'disabled' } };
    const providers = new InMemoryWebhookProviders();
    const soar = providers.add('SOAR');
    await new ChangeGlobalSettings(settings, providers).execute(
      {
        draft: aDraft({
          webhookEnabled: true,
          webhookProviderIds: [soar.id],
          frequency: 'immediate',
        }),
      },
      anAuditContext(),
    );
    expect(settings.global).toMatchObject({
      webhookEnabled: true,
      webhookProviderIds: [soar.id],
      frequency: 'immediate',
      silence: { kind: 'disabled' },
    });
  });

  it('refuses a provider that is not enrolled and saves nothing', async () => {
    const settings = new InMemorySettingsStore();
    const before = settings.global;
    const error = await new ChangeGlobalSettings(settings, new InMemoryWebhookProviders())
      .execute(
        { draft: aDraft({ webhookEnabled: true, webhookProviderIds: ['gone'] }) },
        anAuditContext(),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkspaceError);
    expect(error).toMatchObject({
      code: 'invalid_settings',
      details: [{ field: 'webhookProviderIds[]', message: 'is not an enrolled provider' }],
    });
    expect(settings.global).toBe(before);
  });
  it('records the change in the audit log with the settings before and after, and no refusal', async () => {
    const settings = new InMemorySettingsStore();
    const before = settings.global;
    const change = new ChangeGlobalSettings(settings, new InMemoryWebhookProviders());
    await change
      .execute(
        { draft: aDraft({ webhookEnabled: true, webhookProviderIds: ['gone'] }) },
        anAuditContext(),
      )
      .catch(() => undefined);
    await change.execute({ draft: aDraft({ frequency: 'immediate' }) }, anAuditContext());
    expect(settings.audited).toEqual([
      {
        action: 'settings.global_changed',
        context: anAuditContext(),
        target: { type: 'settings', id: 'global' },
        details: { change: 'settings', before, after: settings.global },
      },
    ]);
    expect(before.frequency).toBe('batch');
    expect(settings.global.frequency).toBe('immediate');
  });
});
