import type { DestinationConfig, DestinationKind, PagerDutyRegion } from '@vigil/destinations';
import type { ProviderFilter } from '@vigil/notification-policy';

export const WEBHOOK_PROVIDER_KINDS = ['automation', 'custom'] as const;
export type WebhookProviderKind = (typeof WEBHOOK_PROVIDER_KINDS)[number];
export const WEBHOOK_PROVIDER_NAME_MAX_LENGTH = 100;
export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** What the Settings area lists: never the secret. */
export interface WebhookProviderView {
  id: string;
  name: string;
  kind: WebhookProviderKind;
  /** What it receives: the SPEC payload (`webhook`) or a Slack, Teams or PagerDuty message. */
  destination: DestinationKind;
  /**
   * Where requests go. For Slack and Teams the path, which is the credential, is left out (the
   * whole URL is sealed with the secrets); for PagerDuty, the Events API of its region.
   */
  url: string;
  /** PagerDuty's settings (none of them secret); absent for other kinds. */
  pagerDuty?: PagerDutyDestinationView;
  /** Which notifications it receives; the others are recorded as skipped deliveries. */
  filter: ProviderFilter;
  createdAt: Date;
  rotatedAt: Date | null;
  /**
   * After a rotation with an overlap: until when the replaced secret still signs, beside the
   * new one. Absent when no replaced secret signs any more.
   */
  previousSecretValidUntil?: Date;
}

export interface PagerDutyDestinationView {
  severityMapping: SeverityMappingView;
  source: string;
  region: PagerDutyRegion;
}

type SeverityMappingView = Extract<DestinationConfig, { kind: 'pagerduty' }>['severityMapping'];

/** What the notifier needs to send: the secret included. */
export interface WebhookProviderTarget {
  id: string;
  name: string;
  /** What the provider receives, its credential opened; `url` for `webhook` destinations. */
  destination: DestinationConfig;
  url: string;
  /** Which notifications it receives; the others are recorded as skipped deliveries. */
  filter: ProviderFilter;
  secret: string;
  /** The replaced secret while it still signs (rotation overlap); requests carry both signatures. */
  previousSecret?: string;
  deleted: boolean;
}

export interface EnrollWebhookProviderCommand {
  name: string;
  kind: WebhookProviderKind;
  /** The webhook URL (also Slack's or Teams'); unused for PagerDuty. */
  url: string;
  /**
   * The destination as entered: `kind` (`webhook` when absent) and its fields, checked by
   * validateDestinationConfig (`routingKey`, `severityMapping`, `source`, `region` for PagerDuty).
   */
  destination?: Record<string, unknown>;
  /**
   * Which notifications it receives, as entered (validateProviderFilter: `subjects`,
   * `minRiskScore`, `sources`); every notification when absent.
   */
  filter?: Record<string, unknown>;
}

/** What enrollment and filter changes check against that only the caller can know. */
export interface ProviderFilterRules {
  /** The sources events have come from: a filter may name only these. */
  knownSources: readonly string[];
}

export interface RotateWebhookSecretOptions {
  /**
   * How long the replaced secret keeps signing beside the new one (default: the service's
   * overlap, WEBHOOK_SECRET_OVERLAP); 0 drops it at once, for a secret that leaked.
   */
  overlapMs?: number;
}

/** The result of enrollment and rotation: the secret is shown here once. */
export interface WebhookProviderWithSecret {
  provider: WebhookProviderView;
  secret: string;
}
