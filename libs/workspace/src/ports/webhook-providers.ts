import {
  type AuditContext,
  type EnableProviderOptions,
  type EnabledProvider,
  type EnrollWebhookProviderCommand,
  type RotateWebhookSecretOptions,
  type WebhookProviderView,
  type WebhookProviderWithSecret,
} from '@vigil/control-plane';

/**
 * The enrolled webhook providers (WebhookProviderService, which applies the target policy);
 * refusals are WebhookProviderErrors. A change is recorded in the audit log under `audit` in the
 * transaction that makes it.
 */
export interface WebhookProviders {
  list(): Promise<WebhookProviderView[]>;
  enroll(
    command: EnrollWebhookProviderCommand,
    audit: AuditContext,
  ): Promise<WebhookProviderWithSecret>;
  rotateSecret(
    id: string,
    options: RotateWebhookSecretOptions,
    audit: AuditContext,
  ): Promise<WebhookProviderWithSecret>;
  delete(id: string, audit: AuditContext): Promise<void>;
  setFilter(
    id: string,
    filter: Record<string, unknown>,
    audit: AuditContext,
  ): Promise<WebhookProviderView>;
  /** Null when the provider was disabled already (its first reason stays). */
  disable(id: string, reason: string, audit: AuditContext): Promise<WebhookProviderView | null>;
  enable(id: string, options: EnableProviderOptions, audit: AuditContext): Promise<EnabledProvider>;
  listDisabled(): Promise<WebhookProviderView[]>;
}
