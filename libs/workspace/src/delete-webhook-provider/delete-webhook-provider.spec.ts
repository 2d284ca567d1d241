import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { DeleteWebhookProvider } from './delete-webhook-provider';
import { anAuditContext } from '../testing/in-memory-audit-trail';

describe('DeleteWebhookProvider', () => {
  it('deletes an enrolled provider, and refuses one that is gone', async () => {
    const providers = new InMemoryWebhookProviders();
    const soar = providers.add('SOAR');
    const remove = new DeleteWebhookProvider(providers);
    await remove.execute({ providerId: soar.id }, anAuditContext());
    expect(providers.providers).toEqual([]);
    await expect(remove.execute({ providerId: soar.id }, anAuditContext())).rejects.toMatchObject({
      code: 'not_found',
    });
  });
  it('has the deletion audited under who deleted it', async () => {
    const providers = new InMemoryWebhookProviders();
    const soar = providers.add('SOAR');
    await new DeleteWebhookProvider(providers).execute({ providerId: soar.id }, anAuditContext());
    expect(providers.audited).toEqual([
      { action: 'provider.deleted', id: soar.id, audit: anAuditContext() },
    ]);
  });
});
