import {
  formatUtc,
  type DigestEntryDecision,
  type EmailDecision,
  type WebhookDecision,
} from '@vigil/contracts';
import {
  describeFilterSkip,
  filterDelivery,
  type ProviderFilter,
  type FilterSkip,
} from './provider-filter';
import type { DetectionSnapshot } from './detection-state';
import { judgeChannels, type ChannelSkip } from './judge-channels';
import type { NotificationFrequency, NotificationSettings } from './notification-settings';

/** An enrolled webhook provider, as the dry run names its targets. */
export interface DryRunProvider {
  id: string;
  name: string;
  /** Which notifications it receives; absent for every one. */
  filter?: ProviderFilter;
  /** Set while the provider is disabled (endpoint health): when, for the reason's words. */
  disabledAt?: number;
}

/**
 * Why a channel, or one of its targets, sends nothing now. The channel's reasons are the
 * decision engine's own (ChannelSkip); a target's reasons come after its channel fires. Each
 * code has its words in describeDryRunReason.
 */
export type DryRunReason =
  | ChannelSkip
  | { code: 'provider_not_enrolled' }
  | { code: 'provider_disabled'; since: number }
  | FilterSkip;

/** When a firing channel's notification leaves. */
export type DryRunWhen = { kind: 'immediately' } | { kind: 'window_close'; at: number };

/** One target of a channel: a selected provider, or a recipient. */
export interface DryRunTarget {
  /** The provider id, or the recipient's address. */
  id: string;
  /** The provider's name, or the recipient's address; null for a provider no longer enrolled. */
  name: string | null;
  /** Null when it would be sent to; otherwise why not (the channel's reason, if it does not fire). */
  reason: DryRunReason | null;
}

type Verdict<D> =
  { fires: true; decision: D; when: DryRunWhen } | { fires: false; reason: DryRunReason };

/** The webhook channel: every selected provider, immediately in every mode. */
export type WebhookDryRun = Verdict<WebhookDecision> & {
  channel: 'webhook';
  targets: DryRunTarget[];
};
/** Email in Immediate and Threshold modes: one email to all recipients. */
export type EmailDryRun = Verdict<EmailDecision> & { channel: 'email'; targets: DryRunTarget[] };
/** Email in Batch mode: the detection's line in each recipient's digest of the current window. */
export type DigestDryRun = Verdict<DigestEntryDecision> & {
  channel: 'digest';
  targets: DryRunTarget[];
};

/** What would be sent about a detection now, channel by channel and target by target. */
export interface DetectionDryRun {
  detectionId: string;
  detectionName: string;
  /** The `now` it was computed for. */
  at: number;
  count: number;
  frequency: NotificationFrequency;
  webhook: WebhookDryRun;
  email: EmailDryRun | DigestDryRun;
}

/**
 * "What would be sent now": the verdicts of judgeChannels, the very code `decide` applies, for
 * the detection's state and the settings in force, reported instead of applied. A channel that
 * fires carries the decision the processor would emit (its payload content); one that does not
 * says why. Pure: the state is not changed.
 *
 * The processor decides on each recalculation and at the end of a snooze: a channel reported as
 * firing here is sent with the next event, or at once when the settings have just changed.
 */
export function dryRunDetection(
  state: DetectionSnapshot,
  settings: NotificationSettings,
  providers: readonly DryRunProvider[],
  now: number,
): DetectionDryRun {
  const verdicts = judgeChannels(state, settings, now);
  const enrolled = new Map(providers.map((provider) => [provider.id, provider]));
  const providerTargets = (channelReason: DryRunReason | null, decision?: WebhookDecision) =>
    [...new Set(settings.webhookProviderIds)].map((id): DryRunTarget => {
      const provider = enrolled.get(id);
      if (provider === undefined) {
        return { id, name: null, reason: channelReason ?? { code: 'provider_not_enrolled' } };
      }
      if (channelReason === null && provider.disabledAt !== undefined) {
        return {
          id,
          name: provider.name,
          reason: { code: 'provider_disabled', since: provider.disabledAt },
        };
      }
      const filtered =
        decision && provider.filter
          ? filterDelivery({ subject: 'detection', ...decision }, provider.filter)
          : null;
      return { id, name: provider.name, reason: channelReason ?? filtered };
    });
  const recipientTargets = (channelReason: DryRunReason | null) =>
    settings.recipients.map((address): DryRunTarget => ({
      id: address,
      name: address,
      reason: channelReason,
    }));

  const { webhook, email } = verdicts;
  const webhookRun: WebhookDryRun = webhook.fires
    ? {
        channel: 'webhook',
        fires: true,
        decision: webhook.decision,
        when: { kind: 'immediately' },
        targets: providerTargets(null, webhook.decision),
      }
    : {
        channel: 'webhook',
        fires: false,
        reason: webhook.skip,
        targets: providerTargets(webhook.skip),
      };

  let emailRun: EmailDryRun | DigestDryRun;
  if (!email.fires) {
    emailRun = {
      channel: settings.frequency === 'batch' ? 'digest' : 'email',
      fires: false,
      reason: email.skip,
      targets: recipientTargets(email.skip),
    };
  } else if (email.decision.kind === 'digest-entry') {
    emailRun = {
      channel: 'digest',
      fires: true,
      decision: email.decision,
      when: { kind: 'window_close', at: email.decision.windowEnd },
      targets: recipientTargets(null),
    };
  } else {
    emailRun = {
      channel: 'email',
      fires: true,
      decision: email.decision,
      when: { kind: 'immediately' },
      targets: recipientTargets(null),
    };
  }

  return {
    detectionId: state.detectionId,
    detectionName: state.detectionName,
    at: now,
    count: state.count,
    frequency: settings.frequency,
    webhook: webhookRun,
    email: emailRun,
  };
}

/** A reason in words, for the detection page and the CLI. */
export function describeDryRunReason(reason: DryRunReason): string {
  switch (reason.code) {
    case 'disabled':
      return 'Notifications are disabled until someone resumes them.';
    case 'silenced_until':
      return `Silenced until ${formatUtc(reason.until)}.`;
    case 'channel_off':
      return 'This channel is off in the settings in force.';
    case 'no_providers':
      return 'Webhooks are on, but no provider is selected.';
    case 'no_recipients':
      return 'Email is on, but there are no recipients.';
    case 'count_not_risen':
      return reason.lastNotifiedAt === null
        ? `The event count (${reason.count}) has not risen.`
        : `The event count has not risen since the last notification, at count ${reason.lastNotifiedCount} on ${formatUtc(reason.lastNotifiedAt)}.`;
    case 'threshold_not_exceeded':
      return `The event count (${reason.count}) does not exceed the threshold (${reason.threshold}).`;
    case 'provider_not_enrolled':
      return 'This provider is no longer enrolled: nothing is sent to it.';
    case 'provider_disabled':
      return `This provider has been disabled since ${formatUtc(reason.since)}: the notification would be recorded as skipped, and sent if an admin enables it with recover.`;
    case 'filtered_subject':
    case 'filtered_risk_score':
    case 'filtered_source':
      return describeFilterSkip(reason);
  }
}

/** When a firing channel sends, in words. */
export function describeDryRunWhen(when: DryRunWhen): string {
  switch (when.kind) {
    case 'immediately':
      return 'Immediately';
    case 'window_close':
      return `At the close of the current batch window, at ${formatUtc(when.at)}`;
  }
}
