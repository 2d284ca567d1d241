import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { DisableWebhookProvider } from './disable-webhook-provider';

describe('DisableWebhookProvider', () => {
  const by = 'ada@example.com';

  it('disables a provider with the reason given, audited', async () => {
    const providers = new InMemoryWebhookProviders();
    const soar = providers.add('SOAR');
    const disabled = await new DisableWebhookProvider(providers).execute(
      { providerId: soar.id, reason: '  Endpoint moved ', disabledBy: by },
      anAuditContext(),
    );
    expect(disabled.disabled?.reason).toBe('Endpoint moved');
    expect(providers.audited).toEqual([
      { action: 'provider.disabled', id: soar.id, audit: anAuditContext() },
    ]);
  });

  it('says who disabled it when no reason is given', async () => {
    const providers = new InMemoryWebhookProviders();
    const soar = providers.add('SOAR');
    const disabled = await new DisableWebhookProvider(providers).execute(
      { providerId: soar.id, reason: ' ', disabledBy: by },
      anAuditContext(),
    );
    expect(disabled.disabled?.reason).toBe('Disabled by ada@example.com');
  });

  it('keeps the first reason of a provider disabled already', async () => {
    const providers = new InMemoryWebhookProviders();
    const soar = providers.add('SOAR');
    const disable = new DisableWebhookProvider(providers);
    await disable.execute(
      { providerId: soar.id, reason: 'First', disabledBy: by },
      anAuditContext(),
    );
    const again = await disable.execute(
      { providerId: soar.id, reason: 'Second', disabledBy: by },
      anAuditContext(),
    );
    expect(again.disabled?.reason).toBe('First');
    expect(providers.audited).toHaveLength(1);
  });

  it('refuses an unknown provider as not found', async () => {
    await expect(
      new DisableWebhookProvider(new InMemoryWebhookProviders()).execute(
        { providerId: 'nope', reason: '', disabledBy: by },
        anAuditContext(),
      ),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
