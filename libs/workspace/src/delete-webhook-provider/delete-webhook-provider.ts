import { type AuditContext } from '@vigil/control-plane';
import { type WebhookProviders } from '../ports/webhook-providers';
import { enrolledProvider } from '../webhook-providers/enrolled-provider';

/** Deletes an enrolled provider: Vigil stops sending to it at once. Audited with the change. */
export class DeleteWebhookProvider {
  constructor(private readonly providers: WebhookProviders) {}

  async execute(command: { readonly providerId: string }, audit: AuditContext): Promise<void> {
    const provider = await enrolledProvider(this.providers, command.providerId);
    await this.providers.delete(provider.id, audit);
  }
}
