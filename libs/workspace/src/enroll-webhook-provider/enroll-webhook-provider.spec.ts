import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { EnrollWebhookProvider } from './enroll-webhook-provider';
import { anAuditContext } from '../testing/in-memory-audit-trail';

describe('EnrollWebhookProvider', () => {
  it('enrolls a provider and shows its secret once, or refuses its target', async () => {
    const providers = new InMemoryWebhookProviders();
    const enroll = new EnrollWebhookProvider(providers);
    const { provider, secret } = await enroll.execute(
      {
        name: 'SOAR',
        kind: 'automation',
        url: 'https://hooks.example.com/soar',
      },
      anAuditContext(),
    );
    expect(provider).toMatchObject({ name: 'SOAR', kind: 'automation' });
    expect(secret).toMatch(/^whsec_/);
    await expect(
      enroll.execute(
        { name: 'Inside', kind: 'custom', url: 'http://private.example/x' },
        anAuditContext(),
      ),
    ).rejects.toMatchObject({ code: 'target_refused', field: 'url' });
    expect(providers.providers).toHaveLength(1);
  });
  it('has the enrollment audited under who enrolled it, and a refused one not at all', async () => {
    const providers = new InMemoryWebhookProviders();
    const enroll = new EnrollWebhookProvider(providers);
    const { provider } = await enroll.execute(
      { name: 'SOAR', kind: 'automation', url: 'https://hooks.example.com/soar' },
      anAuditContext(),
    );
    await enroll
      .execute({ name: 'In', kind: 'custom', url: 'http://private.example/x' }, anAuditContext())
      .catch(() => undefined);
    expect(providers.audited).toEqual([
      { action: 'provider.enrolled', id: provider.id, audit: anAuditContext() },
    ]);
  });
});
