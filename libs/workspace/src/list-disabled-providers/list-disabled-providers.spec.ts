import { anAuditContext } from '../testing/in-memory-audit-trail';
import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { ListDisabledProviders } from './list-disabled-providers';

describe('ListDisabledProviders', () => {
  it('lists only the providers disabled now', async () => {
    const providers = new InMemoryWebhookProviders();
    providers.add('Healthy');
    const down = providers.add('Down');
    await providers.disable(down.id, 'Failing for 72 hours', anAuditContext());
    const disabled = await new ListDisabledProviders(providers).execute();
    expect(disabled.map((p) => [p.name, p.disabled?.reason])).toEqual([
      ['Down', 'Failing for 72 hours'],
    ]);
  });
});
