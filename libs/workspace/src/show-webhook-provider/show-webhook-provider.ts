import { type DeliveryWithAttempts, type WebhookProviderView } from '@vigil/control-plane';
import { type DeliveryLog } from '../ports/delivery-log';
import { type WebhookProviders } from '../ports/webhook-providers';
import { enrolledProvider } from '../webhook-providers/enrolled-provider';

/** How many recent deliveries a provider's page shows. */
export const PROVIDER_DELIVERIES_SHOWN = 20;

export interface WebhookProviderOverview {
  readonly provider: WebhookProviderView;
  /** Newest first, each with every attempt. */
  readonly deliveries: readonly DeliveryWithAttempts[];
}

/** A provider's page: the provider and its recent deliveries with their attempts. */
export class ShowWebhookProvider {
  constructor(
    private readonly providers: WebhookProviders,
    private readonly deliveries: DeliveryLog,
  ) {}

  async execute(query: { readonly providerId: string }): Promise<WebhookProviderOverview> {
    const provider = await enrolledProvider(this.providers, query.providerId);
    const deliveries = await this.deliveries.listWithAttempts({
      channel: 'webhook',
      target: provider.id,
      limit: PROVIDER_DELIVERIES_SHOWN,
    });
    return { provider, deliveries };
  }
}
