import { type AuditContext, type EnabledProvider } from '@vigil/control-plane';
import { type WebhookProviders } from '../ports/webhook-providers';
import { enrolledProvider } from '../webhook-providers/enrolled-provider';

export interface EnableWebhookProviderCommand {
  readonly providerId: string;
  /**
   * Also queue again the deliveries that died, or were skipped while it was disabled, since
   * then; a time in the future is refused on the field `recoverSince`.
   */
  readonly recoverSince?: Date;
}

/**
 * Enables a provider (an enabled one stays enabled) and, when asked, recovers its deliveries in
 * the order they were created, with their ids so receivers can tell a repeat. Audited.
 */
export class EnableWebhookProvider {
  constructor(private readonly providers: WebhookProviders) {}

  async execute(
    command: EnableWebhookProviderCommand,
    audit: AuditContext,
  ): Promise<EnabledProvider> {
    const provider = await enrolledProvider(this.providers, command.providerId);
    return this.providers.enable(provider.id, { recoverSince: command.recoverSince }, audit);
  }
}
