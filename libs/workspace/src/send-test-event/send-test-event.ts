import { randomUUID } from 'node:crypto';
import { type AuditContext } from '@vigil/control-plane';
import { type DeliveryLog } from '../ports/delivery-log';
import { type WebhookProviders } from '../ports/webhook-providers';
import { enrolledProvider } from '../webhook-providers/enrolled-provider';
import { testEventDelivery } from './test-event-delivery';

export interface SendTestEventOptions {
  /** APP_URL: the test event's action_url points into the web application. */
  readonly appUrl: string;
  readonly newId?: () => string;
}

/**
 * Queues a test event for an enrolled provider, so a receiver can check its parsing and its
 * signature verification. The notifier's workers send it; while none runs it stays Pending.
 * Queued and audited in one transaction.
 */
export class SendTestEvent {
  private readonly newId: () => string;

  constructor(
    private readonly providers: WebhookProviders,
    private readonly deliveries: DeliveryLog,
    private readonly options: SendTestEventOptions,
  ) {
    this.newId = options.newId ?? randomUUID;
  }

  /** Returns the id of the queued delivery. */
  async execute(
    command: { readonly providerId: string; readonly now: number },
    audit: AuditContext,
  ): Promise<string> {
    const provider = await enrolledProvider(this.providers, command.providerId);
    const delivery = testEventDelivery(
      provider,
      { deliveryId: this.newId(), notificationId: this.newId() },
      this.options.appUrl,
      command.now,
    );
    await this.deliveries.enqueue(delivery, {
      action: 'provider.test_sent',
      context: audit,
      target: { type: 'webhook_provider', id: provider.id },
      details: { name: provider.name, deliveryId: delivery.id },
    });
    return delivery.id;
  }
}
