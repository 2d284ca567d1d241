/** What an investigation notification says (SPEC §6.3 investigation_metadata, plus the body's risk score). */
export interface InvestigationUpdate {
  investigationId: string;
  status: string;
  outcome: string;
  headline: string;
  personName: string;
  personEmail: string;
  detectionId: string;
  detectionName: string;
  riskScore: number | null;
  /** Deterministic: derived from (investigationId, fingerprint, channel). */
  notificationId: string;
  fingerprint: string;
  decidedAt: number;
}

export interface InvestigationWebhookDecision extends InvestigationUpdate {
  kind: 'investigation-webhook';
  channel: 'webhook';
  providerIds: string[];
}

export interface InvestigationEmailDecision extends InvestigationUpdate {
  kind: 'investigation-email';
  channel: 'email';
  recipients: string[];
}

export type InvestigationDecision = InvestigationWebhookDecision | InvestigationEmailDecision;
