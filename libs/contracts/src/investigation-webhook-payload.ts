import type { InvestigationUpdate } from './investigation-decision';
import type {
  DeliverySection,
  NotificationSection,
  PayloadDelivery,
} from './detection-webhook-payload';
import { investigationUrl, outcomeLabel, riskScoreText } from './notification-text';

/** SPEC §6.3: `investigation_metadata` in place of `metadata`, so receivers can route on it. */
export interface InvestigationWebhookPayload {
  notification: NotificationSection;
  delivery: DeliverySection;
  investigation_metadata: {
    investigation_id: string;
    status: string;
    outcome: string;
    headline: string;
    person_name: string;
    person_email: string;
    detection_name: string;
  };
}

export function investigationTitle(update: Pick<InvestigationUpdate, 'headline'>): string {
  return `Investigation Update: ${update.headline}`;
}

/** Completion (or the new status), then the outcome and the risk score (SPEC §6.3). */
export function investigationBodyLines(update: InvestigationUpdate): string[] {
  const progress =
    update.status === 'completed'
      ? 'has been completed'
      : `has been updated (status: ${update.status})`;
  return [
    `The investigation for ${update.personName} ${progress}.`,
    `Outcome: ${outcomeLabel(update.outcome)}`,
    `Risk score: ${riskScoreText(update.riskScore)}`,
  ];
}

/** Renders the investigation webhook body of SPEC §6.3 for one delivery. Pure. */
export function buildInvestigationWebhookPayload(
  update: InvestigationUpdate,
  delivery: PayloadDelivery,
  appUrl: string,
): InvestigationWebhookPayload {
  return {
    notification: {
      id: update.notificationId,
      title: investigationTitle(update),
      body: investigationBodyLines(update).join('\n'),
      action_url: investigationUrl(appUrl, update.investigationId),
    },
    delivery: { id: delivery.id, recipient_name: delivery.recipientName, channel: 'webhook' },
    investigation_metadata: {
      investigation_id: update.investigationId,
      status: update.status,
      outcome: update.outcome,
      headline: update.headline,
      person_name: update.personName,
      person_email: update.personEmail,
      detection_name: update.detectionName,
    },
  };
}
