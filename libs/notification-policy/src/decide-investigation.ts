import type { InvestigationDecision } from '@vigil/contracts';
import type { InvestigationSnapshot } from './investigation-snapshot';
import { investigationFingerprint } from './investigation-fingerprint';
import { isSilenced } from './is-silenced';
import { investigationNotificationId } from './notification-ids';
import type { NotificationSettings } from './notification-settings';

export interface InvestigationDecisionResult {
  /** What to store as the next call's previousFingerprint: the content last notified. */
  fingerprint: string | null;
  decisions: InvestigationDecision[];
}

/**
 * Investigation notifications: immediate on both channels (never batched, no threshold), following
 * the triggering detection's effective settings (channels, targets, silencing). They fire only
 * when the fingerprint differs from the last notified one, so a resend of identical content sends
 * nothing. When nothing can be sent (silenced, no channel), the previous fingerprint is returned
 * unchanged, so that content is notified on the next update or resend instead of being dropped.
 */
export function decideInvestigation(
  previousFingerprint: string | null,
  investigation: InvestigationSnapshot,
  settings: NotificationSettings,
  now: number,
): InvestigationDecisionResult {
  const fingerprint = investigationFingerprint(investigation);
  if (fingerprint === previousFingerprint || isSilenced(settings, now)) {
    return { fingerprint: previousFingerprint, decisions: [] };
  }
  const { report: _report, ...summary } = investigation;
  const base = { ...summary, fingerprint, decidedAt: now };
  const id = investigation.investigationId;
  const decisions: InvestigationDecision[] = [];
  if (settings.webhookEnabled && settings.webhookProviderIds.length > 0) {
    decisions.push({
      ...base,
      kind: 'investigation-webhook',
      channel: 'webhook',
      notificationId: investigationNotificationId(id, fingerprint, 'webhook'),
      providerIds: [...settings.webhookProviderIds],
    });
  }
  if (settings.emailEnabled && settings.recipients.length > 0) {
    decisions.push({
      ...base,
      kind: 'investigation-email',
      channel: 'email',
      notificationId: investigationNotificationId(id, fingerprint, 'email'),
      recipients: [...settings.recipients],
    });
  }
  return { fingerprint: decisions.length > 0 ? fingerprint : previousFingerprint, decisions };
}
