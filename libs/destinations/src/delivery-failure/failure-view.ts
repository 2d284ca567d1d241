import { detectionUrl, formatUtc, investigationUrl } from '@vigil/contracts';
import { bounded, isDateMs, type NotificationView } from '../notification-view';
import { toWellFormed } from '../text/sanitize-text';
import type { DeliveryFailure } from './delivery-failure';

/** How long the failure's user- and receiver-controlled values may be in a message. */
export const FAILURE_VIEW_LIMITS = { targetName: 200, error: 500 } as const;

const WHAT: Record<DeliveryFailure['kind'], string> = {
  detection: 'a detection notification',
  investigation: 'an investigation update',
  digest: 'a digest',
};

/**
 * A failed delivery as the text of a chat, paging or email message: sanitized and bounded like
 * every notification (the target's name is an admin's text, the error a receiver's), escaped by
 * each target for its own markup. Pure.
 */
export function failureView(failure: DeliveryFailure, appUrl: string): NotificationView {
  const name = bounded(failure.target.name, FAILURE_VIEW_LIMITS.targetName);
  const where = failure.target.channel === 'webhook' ? `provider ${name}` : name;
  const attempts = failure.attempts === 1 ? '1 attempt' : `${failure.attempts} attempts`;
  const error =
    failure.lastError === null ? null : bounded(failure.lastError, FAILURE_VIEW_LIMITS.error);
  const lines = [
    `Vigil could not deliver ${WHAT[failure.kind]} to ${where} after ${attempts}.`,
    ...(failure.lastStatusCode === null ? [] : [`Last answer: HTTP ${failure.lastStatusCode}`]),
    ...(error === null ? [] : [`Last error: ${error}`]),
    ...(isDateMs(failure.diedAt) ? [`Given up at ${formatUtc(failure.diedAt)}.`] : []),
  ];
  const subjectId = failure.subjectId === null ? null : toWellFormed(failure.subjectId);
  const link =
    subjectId === null
      ? failure.target.channel === 'webhook'
        ? {
            url: `${appUrl.replace(/\/+$/, '')}/settings/integrations/${encodeURIComponent(toWellFormed(failure.target.id))}`,
            actionLabel: 'Open provider',
          }
        : { url: appUrl, actionLabel: 'Open Vigil' }
      : failure.kind === 'investigation'
        ? { url: investigationUrl(appUrl, subjectId), actionLabel: 'Open investigation' }
        : { url: detectionUrl(appUrl, subjectId), actionLabel: 'Open detection' };
  return {
    title: `Delivery to ${name} failed`,
    lines,
    ...link,
    events: [],
    unlistedCount: 0,
    facts: [['Delivery', failure.deliveryId]],
  };
}
