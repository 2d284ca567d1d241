import {
  buildDetectionWebhookPayload,
  buildInvestigationWebhookPayload,
  renderDetectionEmail,
  renderInvestigationEmail,
  type NotificationCommand,
  type RenderedEmail,
} from '@vigil/contracts';
import type { DigestEntry, NewDelivery, WebhookProviderTarget } from '@vigil/control-plane';
import { renderStoredBody, type DestinationNotification } from '@vigil/destinations';
import { describeFilterSkip, filterDelivery, idFromParts } from '@vigil/notification-policy';

/** The email payload stored with a delivery: the sender only adds From. */
export interface EmailPayload extends RenderedEmail {
  to: string;
}

export interface DeliveryPlan {
  deliveries: NewDelivery[];
  digestEntries: DigestEntry[];
}

/** How a delivery to a disabled provider is recorded: skipped, for "recover" to send later. */
export const DISABLED_PROVIDER_SKIP = {
  skippedBecause: 'Provider disabled',
  skipCause: 'disabled',
} as const satisfies Pick<NewDelivery, 'skippedBecause' | 'skipCause'>;

/** A delivery's id: derived from what makes it unique, so a replay derives the same id. */
export function deliveryId(notificationId: string, channel: string, target: string): string {
  return idFromParts('delivery', notificationId, channel, target);
}

export function normalizeRecipient(address: string): string {
  return address.trim().toLowerCase();
}

/** Each recipient once, addresses normalized; blank ones dropped. */
function recipientsOf(recipients: readonly string[]): string[] {
  return [...new Set(recipients.map(normalizeRecipient).filter(Boolean))];
}

/**
 * Turns one command into the deliveries (and digest lines) it asks for, each payload rendered
 * now, once. Providers missing from `providers` or deleted since the decision are skipped.
 * The command was validated when its record was decoded (decodeNotificationCommands).
 */
export function planDeliveries(
  command: NotificationCommand,
  providers: ReadonlyMap<string, WebhookProviderTarget>,
  appUrl: string,
): DeliveryPlan {
  const { decision } = command;
  const { notificationId } = decision;
  const liveProviders = (ids: readonly string[]) =>
    [...new Set(ids)]
      .map((id) => providers.get(id))
      .filter((p): p is WebhookProviderTarget => p !== undefined && !p.deleted);
  const emailTo = (
    recipients: readonly string[],
    kind: NewDelivery['kind'],
    subjectId: string,
    email: RenderedEmail,
  ) =>
    recipientsOf(recipients).map((to): NewDelivery => ({
      id: deliveryId(notificationId, 'email', to),
      notificationId,
      kind,
      channel: 'email',
      target: to,
      subjectId,
      payload: { to, ...email } satisfies EmailPayload,
    }));

  switch (decision.kind) {
    case 'webhook': {
      const { kind: _kind, channel: _channel, providerIds, ...notice } = decision;
      const deliveries = liveProviders(providerIds).map((provider) =>
        webhookDelivery(
          { subject: 'detection', ...notice },
          decision.detectionId,
          provider,
          notificationId,
          appUrl,
        ),
      );
      return { deliveries, digestEntries: [] };
    }
    case 'investigation-webhook': {
      const { kind: _kind, channel: _channel, providerIds, ...update } = decision;
      const deliveries = liveProviders(providerIds).map((provider) =>
        webhookDelivery(
          { subject: 'investigation', ...update },
          decision.investigationId,
          provider,
          notificationId,
          appUrl,
        ),
      );
      return { deliveries, digestEntries: [] };
    }
    case 'email': {
      const email = renderDetectionEmail(decision, appUrl);
      return {
        deliveries: emailTo(decision.recipients, 'detection', decision.detectionId, email),
        digestEntries: [],
      };
    }
    case 'investigation-email': {
      const email = renderInvestigationEmail(decision, appUrl);
      return {
        deliveries: emailTo(decision.recipients, 'investigation', decision.investigationId, email),
        digestEntries: [],
      };
    }
    case 'digest-entry': {
      const digestEntries = recipientsOf(decision.recipients).map((recipient): DigestEntry => ({
        entryKey: decision.entryKey,
        recipient,
        windowStart: decision.windowStart,
        windowEnd: decision.windowEnd,
        detectionId: decision.detectionId,
        detectionName: decision.detectionName,
        newCount: decision.windowNewCount,
        currentCount: decision.currentCount,
        userCount: decision.userCount,
        affectedUsers: decision.affectedUsers.map((user) => user.email),
      }));
      return { deliveries: [], digestEntries };
    }
  }
}

/**
 * One provider's delivery of a notification, in what the provider receives: the SPEC payload
 * for `webhook` destinations (built as it always was), else the Slack, Teams or PagerDuty body.
 */
function webhookDelivery(
  notification: DestinationNotification,
  subjectId: string,
  provider: WebhookProviderTarget,
  notificationId: string,
  appUrl: string,
): NewDelivery {
  const id = deliveryId(notificationId, 'webhook', provider.id);
  const delivery = { id, recipientName: provider.name };
  // Held back, recorded with the reason and the body it would have had: by a disabled
  // provider (sent when it is enabled with "recover"), or by the provider's filter (never sent).
  const skip = filterDelivery(notification, provider.filter);
  const skipped = provider.disabled
    ? DISABLED_PROVIDER_SKIP
    : skip === null
      ? {}
      : { skippedBecause: describeFilterSkip(skip) };
  const base = {
    id,
    notificationId,
    kind: notification.subject,
    channel: 'webhook',
    target: provider.id,
    subjectId,
    ...skipped,
  } as const;
  if (provider.destination.kind === 'webhook') {
    return {
      ...base,
      payload:
        notification.subject === 'detection'
          ? buildDetectionWebhookPayload(notification, delivery, appUrl)
          : buildInvestigationWebhookPayload(notification, delivery, appUrl),
    };
  }
  const body = renderStoredBody(notification, { appUrl, delivery }, provider.destination);
  return { ...base, payload: null, payloadJson: body };
}

/** Every provider id a batch of commands refers to, to load them in one query. */
export function providerIdsIn(commands: readonly NotificationCommand[]): string[] {
  const ids = new Set<string>();
  for (const { decision } of commands) {
    if (decision.kind === 'webhook' || decision.kind === 'investigation-webhook') {
      for (const id of decision.providerIds) ids.add(id);
    }
  }
  return [...ids];
}
