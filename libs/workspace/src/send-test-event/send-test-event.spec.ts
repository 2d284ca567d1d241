import { InMemoryDeliveryLog } from '../testing/in-memory-delivery-log';
import { InMemoryWebhookProviders } from '../testing/in-memory-webhook-providers';
import { SendTestEvent } from './send-test-event';
import { TEST_NOTIFICATION_PREFIX } from './test-event-delivery';
import { anAuditContext } from '../testing/in-memory-audit-trail';

describe('SendTestEvent', () => {
  it('queues one test delivery to the provider, stamped with the time given', async () => {
    const providers = new InMemoryWebhookProviders();
    const soar = providers.add('SOAR');
    const deliveries = new InMemoryDeliveryLog();
    let ids = 0;
    const send = new SendTestEvent(providers, deliveries, {
      appUrl: 'https://vigil.example.com',
      newId: () => `id-${(ids += 1)}`,
    });
    const now = Date.parse('2026-03-03T09:05:00Z');
    await expect(send.execute({ providerId: soar.id, now }, anAuditContext())).resolves.toBe(
      'id-1',
    );
    expect(deliveries.queued).toEqual([
      expect.objectContaining({
        id: 'id-1',
        notificationId: `${TEST_NOTIFICATION_PREFIX}id-2`,
        target: soar.id,
        payload: expect.objectContaining({
          metadata: expect.objectContaining({ since: now }),
        }),
      }),
    ]);
  });

  it('queues nothing for a provider that is not enrolled', async () => {
    const deliveries = new InMemoryDeliveryLog();
    await expect(
      new SendTestEvent(new InMemoryWebhookProviders(), deliveries, {
        appUrl: 'https://x',
      }).execute({ providerId: 'gone', now: 0 }, anAuditContext()),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(deliveries.queued).toEqual([]);
  });
  it('records the test send in the audit log with the queued delivery', async () => {
    const providers = new InMemoryWebhookProviders();
    const soar = providers.add('SOAR');
    const deliveries = new InMemoryDeliveryLog();
    const send = new SendTestEvent(providers, deliveries, {
      appUrl: 'https://x',
      newId: () => 'id-1',
    });
    await send.execute({ providerId: soar.id, now: 0 }, anAuditContext());
    expect(deliveries.audited).toEqual([
      {
        action: 'provider.test_sent',
        context: anAuditContext(),
        target: { type: 'webhook_provider', id: soar.id },
        details: { name: 'SOAR', deliveryId: 'id-1' },
      },
    ]);
  });
});
