import { type AuditContext, type WebhookProviderView } from '@vigil/control-plane';
import { type WebhookProviders } from '../ports/webhook-providers';
import { enrolledProvider } from '../webhook-providers/enrolled-provider';

export interface ChangeProviderFilterCommand {
  readonly providerId: string;
  /** As entered: `subjects`, `minRiskScore` (text or number; empty for none), `sources`. */
  readonly filter: Record<string, unknown>;
}

/**
 * Replaces which notifications an enrolled provider receives. A refused field is a
 * WebhookProviderError naming `filter.<field>`. Audited with the change, before and after.
 */
export class ChangeProviderFilter {
  constructor(private readonly providers: WebhookProviders) {}

  async execute(
    command: ChangeProviderFilterCommand,
    audit: AuditContext,
  ): Promise<WebhookProviderView> {
    const provider = await enrolledProvider(this.providers, command.providerId);
    return this.providers.setFilter(provider.id, command.filter, audit);
  }
}
