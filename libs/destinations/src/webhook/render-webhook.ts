import { buildDetectionWebhookPayload, buildInvestigationWebhookPayload } from '@vigil/contracts';
import type { DestinationNotification, RenderContext } from '../destination-notification';
import { jsonBody, type RenderedBody } from '../rendered-body';

/**
 * The SPEC payload (§6.2 or §6.3) exactly as @vigil/contracts builds it, serialized the way the
 * notifier has always stored and sent it: the fields Vigil adds for other targets
 * (`subject`, `maxRiskScore`, `sources`) are not part of it. Pure.
 */
export function renderWebhook(
  notification: DestinationNotification,
  context: RenderContext,
): RenderedBody {
  return jsonBody(
    notification.subject === 'detection'
      ? buildDetectionWebhookPayload(notification, context.delivery, context.appUrl)
      : buildInvestigationWebhookPayload(notification, context.delivery, context.appUrl),
  );
}
