import type {
  DeadDelivery,
  FallbackDestinationView,
  NewDelivery,
  WebhookProviderTarget,
} from '@vigil/control-plane';
import {
  renderDeliveryFailure,
  renderFailureEmail,
  type DeliveryFailure,
} from '@vigil/destinations';
import {
  DISABLED_PROVIDER_SKIP,
  deliveryId,
  normalizeRecipient,
  type EmailPayload,
} from './plan-deliveries';

/** The notification id of a dead delivery's fallback: one per dead delivery, so once. */
export function fallbackNotificationId(deadDeliveryId: string): string {
  return `fallback:${deadDeliveryId.toLowerCase()}`;
}

function parsedOrNull(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

/** The dead delivery as its fallback destination is told of it. */
export function failureOf(
  dead: DeadDelivery,
  providers: ReadonlyMap<string, WebhookProviderTarget>,
): DeliveryFailure {
  const kind = dead.kind === 'investigation' || dead.kind === 'digest' ? dead.kind : 'detection';
  return {
    deliveryId: dead.id,
    notificationId: dead.notificationId,
    kind,
    subjectId: dead.subjectId,
    target: {
      channel: dead.channel,
      id: dead.target,
      name:
        dead.channel === 'webhook'
          ? (providers.get(dead.target)?.name ?? dead.target)
          : dead.target,
    },
    attempts: dead.attempts,
    lastStatusCode: dead.lastStatusCode,
    lastError: dead.lastError,
    diedAt: dead.diedAt.getTime(),
    payload: parsedOrNull(dead.payload),
  };
}

/**
 * The deliveries that tell a dead delivery's fallback destination of it: one to its provider
 * (in the provider's own kind) and one email per recipient, each rendered now, with ids derived
 * from the dead delivery so a second sweep creates nothing. Nothing for a fallback or a notice
 * that died (a fallback does not fall back again), nor to the target that just failed. A
 * disabled fallback provider gets a skipped delivery, recoverable like any. Pure.
 */
export function planFallbackDeliveries(
  dead: DeadDelivery,
  destination: FallbackDestinationView | null,
  providers: ReadonlyMap<string, WebhookProviderTarget>,
  appUrl: string,
): NewDelivery[] {
  if (destination === null || dead.kind === 'fallback' || dead.kind === 'notice') return [];
  const failure = failureOf(dead, providers);
  const notificationId = fallbackNotificationId(dead.id);
  const base = { notificationId, kind: 'fallback', subjectId: dead.subjectId } as const;
  const deliveries: NewDelivery[] = [];
  const provider =
    destination.providerId === null ? undefined : providers.get(destination.providerId);
  const sameTarget = dead.channel === 'webhook' && provider?.id === dead.target;
  if (provider !== undefined && !provider.deleted && !sameTarget) {
    deliveries.push({
      ...base,
      id: deliveryId(notificationId, 'webhook', provider.id),
      channel: 'webhook',
      target: provider.id,
      payload: null,
      payloadJson: renderDeliveryFailure(failure, appUrl, provider.destination),
      ...(provider.disabled ? DISABLED_PROVIDER_SKIP : {}),
    });
  }
  const email = renderFailureEmail(failure, appUrl);
  const failedAddress = dead.channel === 'email' ? normalizeRecipient(dead.target) : null;
  for (const to of destination.recipients.map(normalizeRecipient)) {
    if (to === failedAddress) continue;
    deliveries.push({
      ...base,
      id: deliveryId(notificationId, 'email', to),
      channel: 'email',
      target: to,
      payload: { to, ...email } satisfies EmailPayload,
    });
  }
  return deliveries;
}
