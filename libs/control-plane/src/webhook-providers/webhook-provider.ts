export const WEBHOOK_PROVIDER_KINDS = ['automation', 'custom'] as const;
export type WebhookProviderKind = (typeof WEBHOOK_PROVIDER_KINDS)[number];
export const WEBHOOK_PROVIDER_NAME_MAX_LENGTH = 100;
export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** What the Settings area lists: never the secret. */
export interface WebhookProviderView {
  id: string;
  name: string;
  kind: WebhookProviderKind;
  url: string;
  createdAt: Date;
  rotatedAt: Date | null;
}

/** What the notifier needs to send: the secret included. */
export interface WebhookProviderTarget {
  id: string;
  name: string;
  url: string;
  secret: string;
  deleted: boolean;
}

export interface EnrollWebhookProviderCommand {
  name: string;
  kind: WebhookProviderKind;
  url: string;
}

/** The result of enrollment and rotation: the secret is shown here once. */
export interface WebhookProviderWithSecret {
  provider: WebhookProviderView;
  secret: string;
}
