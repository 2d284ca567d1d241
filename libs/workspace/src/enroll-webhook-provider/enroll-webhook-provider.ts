import {
  type AuditContext,
  type EnrollWebhookProviderCommand,
  type WebhookProviderWithSecret,
} from '@vigil/control-plane';
import { type WebhookProviders } from '../ports/webhook-providers';

/**
 * Enrolls a webhook provider (SPEC.md §2.5) and returns its signing secret, shown this once. A
 * refusal is a WebhookProviderError: `invalid_request` naming the field, or `target_refused`
 * when the URL's address is not one Vigil may send to. Audited with the change.
 */
export class EnrollWebhookProvider {
  constructor(private readonly providers: WebhookProviders) {}

  execute(
    command: EnrollWebhookProviderCommand,
    audit: AuditContext,
  ): Promise<WebhookProviderWithSecret> {
    return this.providers.enroll(command, audit);
  }
}
