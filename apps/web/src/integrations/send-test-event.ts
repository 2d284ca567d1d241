import { randomUUID } from 'node:crypto';
import { SqlDeliveryStore, type SqlClient, type WebhookProviderView } from '@vigil/control-plane';
import { testEventDelivery } from './test-event-delivery';

/**
 * Queues a test event for a provider. The notifier's workers pick pending deliveries up from
 * the database; while no notifier runs, the delivery stays Pending.
 */
export class SendTestEvent {
  private readonly store: SqlDeliveryStore;

  constructor(
    private readonly sql: SqlClient,
    private readonly appUrl: string,
    private readonly clock: () => number = Date.now,
  ) {
    this.store = new SqlDeliveryStore(sql);
  }

  /** Returns the id of the queued delivery. */
  async execute(provider: Pick<WebhookProviderView, 'id' | 'name'>): Promise<string> {
    const delivery = testEventDelivery(
      provider,
      { deliveryId: randomUUID(), notificationId: randomUUID() },
      this.appUrl,
      this.clock(),
    );
    await this.sql.transaction((tx) => this.store.insert(tx, [delivery]));
    return delivery.id;
  }
}
