import { InMemoryDeliveryLog } from '../testing/in-memory-delivery-log';
import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { ListWebhookProviders } from './list-webhook-providers';

describe('ListWebhookProviders', () => {
  it('lists every provider with its newest webhook delivery, if any', async () => {
    const providers = new InMemoryWebhookProviders();
    const [busy, quiet] = [providers.add('Busy'), providers.add('Quiet')];
    const deliveries = new InMemoryDeliveryLog();
    deliveries.add({ id: 'd-1', target: busy.id });
    const newest = deliveries.add({ id: 'd-2', target: busy.id });
    deliveries.add({ id: 'd-3', target: quiet.id, channel: 'email' });

    const list = await new ListWebhookProviders(providers, deliveries).execute();
    expect(list.providers.map((p) => p.name)).toEqual(['Busy', 'Quiet']);
    expect([...list.latest]).toEqual([[busy.id, newest]]);
  });
});
