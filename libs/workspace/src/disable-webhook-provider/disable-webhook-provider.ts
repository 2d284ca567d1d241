import { type AuditContext, type WebhookProviderView } from '@vigil/control-plane';
import { type WebhookProviders } from '../ports/webhook-providers';
import { enrolledProvider } from '../webhook-providers/enrolled-provider';

export interface DisableWebhookProviderCommand {
  readonly providerId: string;
  /** As entered; blank means "Disabled by <disabledBy>". */
  readonly reason: string;
  /** Who disables it (an admin's email), for the default reason. */
  readonly disabledBy: string;
}

/**
 * Disables a provider by hand (an endpoint known to be down): its pending deliveries and the
 * notifications decided from now on are recorded as skipped until it is enabled. Returns the
 * provider as it is now; disabling a disabled one keeps its first reason.
 */
export class DisableWebhookProvider {
  constructor(private readonly providers: WebhookProviders) {}

  async execute(
    command: DisableWebhookProviderCommand,
    audit: AuditContext,
  ): Promise<WebhookProviderView> {
    const provider = await enrolledProvider(this.providers, command.providerId);
    const reason = command.reason.trim() || `Disabled by ${command.disabledBy}`;
    return (await this.providers.disable(provider.id, reason, audit)) ?? provider;
  }
}
