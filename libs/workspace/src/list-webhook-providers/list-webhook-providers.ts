import { type DeliveryView, type WebhookProviderView } from '@vigil/control-plane';
import { type DeliveryLog } from '../ports/delivery-log';
import { type WebhookProviders } from '../ports/webhook-providers';

export interface WebhookProviderList {
  readonly providers: readonly WebhookProviderView[];
  /** The newest delivery to each provider that has one. */
  readonly latest: ReadonlyMap<string, DeliveryView>;
}

/** Settings → Integrations: the enrolled providers, each with its latest delivery. */
export class ListWebhookProviders {
  constructor(
    private readonly providers: WebhookProviders,
    private readonly deliveries: DeliveryLog,
  ) {}

  async execute(): Promise<WebhookProviderList> {
    const providers = await this.providers.list();
    const latest = await this.deliveries.latestByTarget(
      'webhook',
      providers.map((p) => p.id),
    );
    return { providers, latest };
  }
}
