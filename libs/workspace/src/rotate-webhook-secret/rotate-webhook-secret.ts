import { type AuditContext, type WebhookProviderWithSecret } from '@vigil/control-plane';
import { type WebhookProviders } from '../ports/webhook-providers';
import { enrolledProvider } from '../webhook-providers/enrolled-provider';

export interface RotateWebhookSecretCommand {
  readonly providerId: string;
  /**
   * Stop the replaced secret at once, for one that leaked; otherwise it keeps signing beside
   * the new one for the overlap (WEBHOOK_SECRET_OVERLAP), so the receiver can switch.
   */
  readonly stopPreviousNow?: boolean;
}

/**
 * Gives an enrolled provider a new signing secret, returned this once (DESIGN.md §9). Audited
 * with the change.
 */
export class RotateWebhookSecret {
  constructor(private readonly providers: WebhookProviders) {}

  async execute(
    command: RotateWebhookSecretCommand,
    audit: AuditContext,
  ): Promise<WebhookProviderWithSecret> {
    const provider = await enrolledProvider(this.providers, command.providerId);
    const options = command.stopPreviousNow === true ? { overlapMs: 0 } : {};
    return this.providers.rotateSecret(provider.id, options, audit);
  }
}
