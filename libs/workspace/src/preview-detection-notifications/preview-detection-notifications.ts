import { renderDetectionEmail, renderDigestEmail } from '@vigil/contracts';
import { type NotificationSettingsStore, type WebhookProviderView } from '@vigil/control-plane';
import { renderStoredBody, renderWebhook } from '@vigil/destinations';
import {
  describeDryRunReason,
  describeDryRunWhen,
  dryRunDetection,
  resolveEffectiveSettings,
  type DetectionDryRun,
  type DryRunReason,
  type DryRunTarget,
  type DryRunWhen,
  type NotificationFrequency,
  type SettingsSource,
  type WebhookDryRun,
} from '@vigil/notification-policy';
import { type EventReadModel } from '@vigil/search';
import { type WebhookProviders } from '../ports/webhook-providers';
import { renderingConfigOf } from '../webhook-providers/rendering-config';
import { WorkspaceError } from '../workspace-error';

/**
 * What stands for the delivery id in a previewed payload: a real one is derived from the
 * notification and the target when the notifier creates the delivery.
 */
export const PLACEHOLDER_DELIVERY_ID = '(placeholder: the delivery id is assigned when it is sent)';

/** A body as it would be sent: the exact bytes of a webhook, or an email's subject and text. */
export type PreviewPayload =
  | { readonly kind: 'webhook'; readonly contentType: string; readonly body: string }
  | { readonly kind: 'email'; readonly subject: string; readonly text: string };

export interface PreviewTarget {
  /** The provider id, or the recipient's address. */
  readonly id: string;
  /** The provider's name, or the address; null for a provider no longer enrolled. */
  readonly name: string | null;
  readonly sends: boolean;
  /** Why nothing is sent to it (null when it is sent to), in words and as a code. */
  readonly reason: string | null;
  readonly reasonCode: DryRunReason['code'] | null;
  /** A webhook target's own payload (its name is in it). */
  readonly payload: PreviewPayload | null;
}

export interface PreviewChannel {
  /** `digest`: email in Batch mode, one line of each recipient's digest of the window. */
  readonly channel: 'webhook' | 'email' | 'digest';
  readonly fires: boolean;
  /** When it fires: "Immediately" or the close of the batch window; otherwise why not. */
  readonly summary: string;
  readonly when: DryRunWhen | null;
  readonly reasonCode: DryRunReason['code'] | null;
  readonly targets: readonly PreviewTarget[];
  /** Email: the one email every recipient gets; digest: this detection's part of the digest. */
  readonly payload: PreviewPayload | null;
}

export interface DetectionNotificationPreview {
  readonly detectionId: string;
  readonly detectionName: string;
  /** When it was computed (epoch ms). */
  readonly at: number;
  readonly settingsSource: SettingsSource;
  readonly frequency: NotificationFrequency;
  /**
   * When the processor recorded the state this is computed from (epoch ms); null when the read
   * model has no state for the detection yet (it follows the processor by the indexer's delay).
   */
  readonly recordedAt: number | null;
  /** The event count of that state. */
  readonly count: number | null;
  readonly channels: readonly PreviewChannel[];
  /** The policy's report itself, decisions included. */
  readonly dryRun: DetectionDryRun | null;
}

export interface PreviewDetectionNotificationsOptions {
  /** APP_URL: payloads link into the web application. */
  readonly appUrl: string;
}

/**
 * "What would be sent now" for a detection: for each channel and target whether it would fire,
 * and why not, with the payload it would send and when. Computed by the decision engine's own
 * code (dryRunDetection) from the detection's state as the processor last recorded it and the
 * settings in force; payloads come from the renderers the notifier uses, with a placeholder
 * delivery id. Changes nothing.
 *
 * Workspace members may see it: a payload holds only what the detection's page shows them
 * (events with people's names and descriptions, affected users' addresses, counts, the provider
 * names and recipients of the settings in force). A kind of target whose body carries a
 * credential (a PagerDuty routing key) must have it masked here before it is shown.
 */
export class PreviewDetectionNotifications {
  constructor(
    private readonly readModel: Pick<EventReadModel, 'getDetection' | 'getDetectionState'>,
    private readonly settings: NotificationSettingsStore,
    private readonly providers: WebhookProviders,
    private readonly options: PreviewDetectionNotificationsOptions,
  ) {}

  async execute(command: {
    readonly detectionId: string;
    readonly now: number;
  }): Promise<DetectionNotificationPreview> {
    const { detectionId, now } = command;
    const [detection, recorded, global, config, providers] = await Promise.all([
      this.readModel.getDetection(detectionId),
      this.readModel.getDetectionState(detectionId),
      this.settings.getGlobal(),
      this.settings.getDetectionConfig(detectionId),
      this.providers.list(),
    ]);
    if (detection === null) throw new WorkspaceError('not_found', 'No such detection');
    const effective = resolveEffectiveSettings(global, config);
    const base = {
      detectionId,
      detectionName: detection.name,
      at: now,
      settingsSource: effective.source,
      frequency: effective.settings.frequency,
    };
    if (recorded === null) {
      return { ...base, recordedAt: null, count: null, channels: [], dryRun: null };
    }
    const dryRun = dryRunDetection(
      recorded.snapshot,
      effective.settings,
      providers.map(({ id, name, filter, disabled }) => ({
        id,
        name,
        filter,
        ...(disabled === undefined ? {} : { disabledAt: disabled.at.getTime() }),
      })),
      now,
    );
    return {
      ...base,
      detectionName: dryRun.detectionName || detection.name,
      recordedAt: recorded.recordedAt,
      count: dryRun.count,
      channels: [
        this.webhookChannel(dryRun.webhook, new Map(providers.map((p) => [p.id, p]))),
        this.emailChannel(dryRun.email),
      ],
      dryRun,
    };
  }

  private webhookChannel(
    run: WebhookDryRun,
    providers: ReadonlyMap<string, WebhookProviderView>,
  ): PreviewChannel {
    const payloadFor = (target: DryRunTarget): PreviewPayload | null => {
      if (!run.fires || target.reason !== null) return null;
      const notification = { subject: 'detection', ...run.decision } as const;
      const context = {
        appUrl: this.options.appUrl,
        delivery: { id: PLACEHOLDER_DELIVERY_ID, recipientName: target.name ?? target.id },
      };
      // What the provider receives: the SPEC payload, or its Slack, Teams or PagerDuty body
      // as the delivery log would hold it (PagerDuty's routing key is added when sending).
      const provider = providers.get(target.id);
      const config = provider === undefined ? null : renderingConfigOf(provider);
      if (config !== null) {
        return {
          kind: 'webhook',
          contentType: 'application/json',
          body: renderStoredBody(notification, context, config),
        };
      }
      const rendered = renderWebhook(notification, context);
      return { kind: 'webhook', contentType: rendered.contentType, body: rendered.body };
    };
    return {
      ...channelOutcome(run),
      channel: 'webhook',
      targets: run.targets.map((target) => previewTarget(target, payloadFor(target))),
      payload: null,
    };
  }

  private emailChannel(run: DetectionDryRun['email']): PreviewChannel {
    let payload: PreviewPayload | null = null;
    if (run.fires && run.channel === 'email') {
      const { subject, text } = renderDetectionEmail(run.decision, this.options.appUrl);
      payload = { kind: 'email', subject, text };
    } else if (run.fires && run.channel === 'digest') {
      const entry = run.decision;
      const { subject, text } = renderDigestEmail(
        {
          windowStart: entry.windowStart,
          windowEnd: entry.windowEnd,
          lines: [
            {
              detectionId: entry.detectionId,
              detectionName: entry.detectionName,
              newCount: entry.windowNewCount,
              totalCount: entry.currentCount,
              userCount: entry.userCount,
              affectedUsers: entry.affectedUsers.map((user) => user.email),
            },
          ],
        },
        this.options.appUrl,
      );
      payload = { kind: 'email', subject, text };
    }
    return {
      ...channelOutcome(run),
      channel: run.channel,
      targets: run.targets.map((target) => previewTarget(target, null)),
      payload,
    };
  }
}

function channelOutcome(
  run: DetectionDryRun['webhook'] | DetectionDryRun['email'],
): Pick<PreviewChannel, 'fires' | 'summary' | 'when' | 'reasonCode'> {
  return run.fires
    ? { fires: true, summary: describeDryRunWhen(run.when), when: run.when, reasonCode: null }
    : {
        fires: false,
        summary: describeDryRunReason(run.reason),
        when: null,
        reasonCode: run.reason.code,
      };
}

function previewTarget(target: DryRunTarget, payload: PreviewPayload | null): PreviewTarget {
  return {
    id: target.id,
    name: target.name,
    sends: target.reason === null,
    reason: target.reason === null ? null : describeDryRunReason(target.reason),
    reasonCode: target.reason?.code ?? null,
    payload,
  };
}
