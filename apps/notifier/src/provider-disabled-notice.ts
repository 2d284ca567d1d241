import { emailDocument, formatUtc, html, joinHtml } from '@vigil/contracts';
import type { NewDelivery, WebhookProviderView } from '@vigil/control-plane';
import { deliveryId, normalizeRecipient, type EmailPayload } from './plan-deliveries';

/**
 * The email telling an admin that a provider was disabled for failing: why, what happens to its
 * notifications meanwhile, and where to enable it (with recover). One per admin and disabling:
 * its id derives from the provider and the time it was disabled. Pure.
 */
export function providerDisabledNotice(
  provider: WebhookProviderView,
  adminEmail: string,
  appUrl: string,
): NewDelivery {
  const to = normalizeRecipient(adminEmail);
  const disabledAt = provider.disabled?.at ?? new Date(0);
  const reason = provider.disabled?.reason ?? '';
  const notificationId = `provider-disabled:${provider.id}:${disabledAt.toISOString()}`;
  const url = `${appUrl.replace(/\/+$/, '')}/settings/integrations/${encodeURIComponent(provider.id)}`;
  const lines = [
    `Vigil disabled the provider ${provider.name} at ${formatUtc(disabledAt.getTime())}.`,
    reason,
    'Until an admin enables it again, its notifications are recorded as skipped, not sent.',
    'Enabling it offers to recover them: every failed or skipped delivery since a time you choose is sent again, in order.',
  ].filter(Boolean);
  const payload: EmailPayload = {
    to,
    subject: `[Vigil] Provider ${provider.name} was disabled`,
    text: [...lines, '', `Review the provider: ${url}`].join('\n'),
    html: emailDocument(
      `Provider ${provider.name} was disabled`,
      html`${joinHtml(lines.map((line) => html`<p>${line}</p>`))}
        <p><a href="${url}">Review the provider</a></p>`,
    ),
  };
  return {
    id: deliveryId(notificationId, 'email', to),
    notificationId,
    kind: 'notice',
    channel: 'email',
    target: to,
    subjectId: null,
    payload,
  };
}
