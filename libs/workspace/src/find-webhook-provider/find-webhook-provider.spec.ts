import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { FindWebhookProvider } from './find-webhook-provider';

describe('FindWebhookProvider', () => {
  it('finds an enrolled provider, and refuses an unknown one as not found', async () => {
    const providers = new InMemoryWebhookProviders();
    const soar = providers.add('SOAR');
    const find = new FindWebhookProvider(providers);
    await expect(find.execute({ providerId: soar.id })).resolves.toEqual(soar);
    await expect(find.execute({ providerId: 'gone' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
