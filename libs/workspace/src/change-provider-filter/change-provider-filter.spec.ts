import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { ChangeProviderFilter } from './change-provider-filter';

describe('ChangeProviderFilter', () => {
  it("replaces an enrolled provider's filter, audited", async () => {
    const providers = new InMemoryWebhookProviders();
    const soar = providers.add('SOAR');
    const changed = await new ChangeProviderFilter(providers).execute(
      { providerId: soar.id, filter: { subjects: 'detections', minRiskScore: '7' } },
      anAuditContext(),
    );
    expect(changed.filter).toEqual({ subjects: 'detections', minRiskScore: 7, sources: [] });
    expect(providers.audited).toEqual([
      { action: 'provider.filter_changed', id: soar.id, audit: anAuditContext() },
    ]);
  });

  it('refuses an unknown provider as not found', async () => {
    await expect(
      new ChangeProviderFilter(new InMemoryWebhookProviders()).execute(
        { providerId: 'nope', filter: {} },
        anAuditContext(),
      ),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
