import { type WebhookProviderView } from '@vigil/control-plane';
import { enrolledProvider } from '../webhook-providers/enrolled-provider';
import { type WebhookProviders } from '../ports/webhook-providers';

/** One enrolled webhook provider (before rotating its secret or deleting it, say). */
export class FindWebhookProvider {
  constructor(private readonly providers: WebhookProviders) {}

  execute(query: { readonly providerId: string }): Promise<WebhookProviderView> {
    return enrolledProvider(this.providers, query.providerId);
  }
}
