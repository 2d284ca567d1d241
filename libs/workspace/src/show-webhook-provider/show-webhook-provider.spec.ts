import { InMemoryDeliveryLog } from '../testing/in-memory-delivery-log';
import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { ShowWebhookProvider } from './show-webhook-provider';

describe('ShowWebhookProvider', () => {
  it('shows the provider’s own deliveries, newest first, with their attempts', async () => {
    const providers = new InMemoryWebhookProviders();
    const [soar, other] = [providers.add('SOAR'), providers.add('Other')];
    const deliveries = new InMemoryDeliveryLog();
    const older = deliveries.add({ id: 'd-1', target: soar.id, attemptCount: 1 });
    deliveries.add({ id: 'd-2', target: other.id });
    const newer = deliveries.add({ id: 'd-3', target: soar.id });
    const attempt = {
      attempt: 1,
      attemptedAt: new Date(0),
      statusCode: 500,
      latencyMs: 3,
      error: 'HTTP 500',
    };
    deliveries.attempts.set(older.id, [attempt]);

    const overview = await new ShowWebhookProvider(providers, deliveries).execute({
      providerId: soar.id,
    });
    expect(overview.provider).toEqual(soar);
    expect(overview.deliveries).toEqual([
      { delivery: newer, attempts: [] },
      { delivery: older, attempts: [attempt] },
    ]);
  });

  it('refuses a provider that is not enrolled', async () => {
    await expect(
      new ShowWebhookProvider(new InMemoryWebhookProviders(), new InMemoryDeliveryLog()).execute({
        providerId: 'gone',
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
