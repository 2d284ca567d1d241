import { type WebhookProviderView } from '@vigil/control-plane';
import { type WebhookProviders } from '../ports/webhook-providers';

/** The providers disabled now (by the notifier's health rules or by an admin), for the banner. */
export class ListDisabledProviders {
  constructor(private readonly providers: Pick<WebhookProviders, 'listDisabled'>) {}

  execute(): Promise<WebhookProviderView[]> {
    return this.providers.listDisabled();
  }
}
