import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { EnableWebhookProvider } from './enable-webhook-provider';

describe('EnableWebhookProvider', () => {
  const now = new Date('2026-03-01T12:00:00Z');

  async function disabledProvider() {
    const providers = new InMemoryWebhookProviders({ now });
    const soar = providers.add('SOAR');
    await providers.disable(soar.id, 'Failing for 72 hours', anAuditContext());
    providers.audited.length = 0;
    return { providers, soar };
  }

  it('enables a disabled provider without resending anything', async () => {
    const { providers, soar } = await disabledProvider();
    providers.recoverable.set(soar.id, [new Date('2026-03-01T10:00:00Z')]);
    const { provider, recovered } = await new EnableWebhookProvider(providers).execute(
      { providerId: soar.id },
      anAuditContext(),
    );
    expect(provider.disabled).toBeUndefined();
    expect(recovered).toBe(0);
    expect(providers.audited.map((a) => a.action)).toEqual(['provider.enabled']);
  });

  it('recovers the deliveries created since the time given, audited', async () => {
    const { providers, soar } = await disabledProvider();
    providers.recoverable.set(soar.id, [
      new Date('2026-03-01T08:00:00Z'),
      new Date('2026-03-01T10:00:00Z'),
      new Date('2026-03-01T11:00:00Z'),
    ]);
    const { recovered } = await new EnableWebhookProvider(providers).execute(
      { providerId: soar.id, recoverSince: new Date('2026-03-01T09:00:00Z') },
      anAuditContext(),
    );
    expect(recovered).toBe(2);
    expect(providers.audited.map((a) => a.action)).toEqual([
      'provider.enabled',
      'deliveries.recovered',
    ]);
  });

  it('refuses a time in the future on its field', async () => {
    const { providers, soar } = await disabledProvider();
    await expect(
      new EnableWebhookProvider(providers).execute(
        { providerId: soar.id, recoverSince: new Date('2026-03-02T00:00:00Z') },
        anAuditContext(),
      ),
    ).rejects.toMatchObject({ code: 'invalid_request', field: 'recoverSince' });
    expect((await providers.listDisabled()).map((p) => p.id)).toEqual([soar.id]);
  });

  it('refuses an unknown provider as not found', async () => {
    await expect(
      new EnableWebhookProvider(new InMemoryWebhookProviders()).execute(
        { providerId: 'nope' },
        anAuditContext(),
      ),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
