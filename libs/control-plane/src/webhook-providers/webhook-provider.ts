import type { DestinationConfig, DestinationKind, PagerDutyRegion } from '@vigil/destinations';
import type { EndpointHealth, ProviderFilter } from '@vigil/notification-policy';

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
  /** How its deliveries have gone since its last success (or since it was last enabled). */
  health: EndpointHealth;
  /** Set while the provider is disabled: its notifications are recorded as skipped. */
  disabled?: ProviderDisabled;
  createdAt: Date;
  rotatedAt: Date | null;
  /**
   * After a rotation with an overlap: until when the replaced secret still signs, beside the
   * new one. Absent when no replaced secret signs any more.
   */
  previousSecretValidUntil?: Date;
}

/** When and why a provider was disabled (by the notifier's health rules, or by an admin). */
export interface ProviderDisabled {
  at: Date;
  reason: string;
}

/** What enabling a provider did: the deliveries queued again by "recover", none without it. */
export interface EnabledProvider {
  provider: WebhookProviderView;
  recovered: number;
}

export interface EnableProviderOptions {
  /**
   * Queue again every dead delivery to it, and every delivery skipped while it was disabled,
   * created at or after this time: in the order they were created, with their ids (receivers
   * see the same `webhook-id`s). Nothing is resent without it.
   */
  recoverSince?: Date;
}

/** A provider whose counters say it may be failing: what the notifier's health sweep reads. */
export interface ProviderHealthCandidate {
  id: string;
  name: string;
  health: EndpointHealth;
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
  /** Disabled for failing (or by an admin): its deliveries are skipped, not sent. */
  disabled: boolean;
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
