import {
  buildDetectionWebhookPayload,
  buildInvestigationWebhookPayload,
  renderDetectionEmail,
  renderInvestigationEmail,
  type NotificationCommand,
  type RenderedEmail,
} from '@vigil/contracts';
import type { DigestEntry, NewDelivery, WebhookProviderTarget } from '@vigil/control-plane';
import { idFromParts } from '@vigil/notification-policy';

/** The email payload stored with a delivery: the sender only adds From. */
export interface EmailPayload extends RenderedEmail {
  to: string;
}

export interface DeliveryPlan {
  deliveries: NewDelivery[];
  digestEntries: DigestEntry[];
}

/** A delivery's id: derived from what makes it unique, so a replay derives the same id. */
export function deliveryId(notificationId: string, channel: string, target: string): string {
  return idFromParts('delivery', notificationId, channel, target);
}

export function normalizeRecipient(address: string): string {
  return address.trim().toLowerCase();
}

function recipientsOf(value: unknown): string[] {
  if (!Array.isArray(value) || value.some((r) => typeof r !== 'string')) {
    throw new Error('decision.recipients must be an array of strings');
  }
  return [...new Set((value as string[]).map(normalizeRecipient).filter(Boolean))];
}

function providerIdsOf(value: unknown): string[] {
  if (!Array.isArray(value) || value.some((r) => typeof r !== 'string')) {
    throw new Error('decision.providerIds must be an array of strings');
  }
  return [...new Set(value as string[])];
}

function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new Error(`decision.${field} must be a non-empty string`);
  }
  return value;
}

/**
 * Turns one command into the deliveries (and digest lines) it asks for, each payload rendered
 * now, once. Providers missing from `providers` or deleted since the decision are skipped.
 * Throws on a command it cannot understand; the caller sends that record to the DLQ.
 */
export function planDeliveries(
  command: NotificationCommand,
  providers: ReadonlyMap<string, WebhookProviderTarget>,
  appUrl: string,
): DeliveryPlan {
  const { decision } = command;
  const notificationId = requireString(decision.notificationId, 'notificationId');
  const liveProviders = (ids: unknown) =>
    providerIdsOf(ids)
      .map((id) => providers.get(id))
      .filter((p): p is WebhookProviderTarget => p !== undefined && !p.deleted);
  const emailTo = (
    recipients: unknown,
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
      const detectionId = requireString(decision.detectionId, 'detectionId');
      const deliveries = liveProviders(decision.providerIds).map((provider): NewDelivery => {
        const id = deliveryId(notificationId, 'webhook', provider.id);
        return {
          id,
          notificationId,
          kind: 'detection',
          channel: 'webhook',
          target: provider.id,
          subjectId: detectionId,
          payload: buildDetectionWebhookPayload(
            decision,
            { id, recipientName: provider.name },
            appUrl,
          ),
        };
      });
      return { deliveries, digestEntries: [] };
    }
    case 'investigation-webhook': {
      const investigationId = requireString(decision.investigationId, 'investigationId');
      const deliveries = liveProviders(decision.providerIds).map((provider): NewDelivery => {
        const id = deliveryId(notificationId, 'webhook', provider.id);
        return {
          id,
          notificationId,
          kind: 'investigation',
          channel: 'webhook',
          target: provider.id,
          subjectId: investigationId,
          payload: buildInvestigationWebhookPayload(
            decision,
            { id, recipientName: provider.name },
            appUrl,
          ),
        };
      });
      return { deliveries, digestEntries: [] };
    }
    case 'email': {
      const detectionId = requireString(decision.detectionId, 'detectionId');
      const email = renderDetectionEmail(decision, appUrl);
      return {
        deliveries: emailTo(decision.recipients, 'detection', detectionId, email),
        digestEntries: [],
      };
    }
    case 'investigation-email': {
      const investigationId = requireString(decision.investigationId, 'investigationId');
      const email = renderInvestigationEmail(decision, appUrl);
      return {
        deliveries: emailTo(decision.recipients, 'investigation', investigationId, email),
        digestEntries: [],
      };
    }
    case 'digest-entry': {
      const entryKey = requireString(decision.entryKey, 'entryKey');
      const digestEntries = recipientsOf(decision.recipients).map((recipient): DigestEntry => ({
        entryKey,
        recipient,
        windowStart: decision.windowStart,
        windowEnd: decision.windowEnd,
        detectionId: requireString(decision.detectionId, 'detectionId'),
        detectionName: decision.detectionName,
        newCount: decision.windowNewCount,
        currentCount: decision.currentCount,
        userCount: decision.userCount,
        affectedUsers: decision.affectedUsers.map((user) => user.email),
      }));
      return { deliveries: [], digestEntries };
    }
    default: {
      const kind: string = (decision as { kind: string }).kind;
      throw new Error(`Unknown decision kind "${kind}"`);
    }
  }
}

/** Every provider id a batch of commands refers to, to load them in one query. */
export function providerIdsIn(commands: readonly NotificationCommand[]): string[] {
  const ids = new Set<string>();
  for (const { decision } of commands) {
    if (
      (decision.kind === 'webhook' || decision.kind === 'investigation-webhook') &&
      Array.isArray(decision.providerIds)
    ) {
      for (const id of decision.providerIds) if (typeof id === 'string') ids.add(id);
    }
  }
  return [...ids];
}
