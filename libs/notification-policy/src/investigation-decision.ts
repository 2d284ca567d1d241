/** The investigation as the processor sees it (SPEC §2.3, §6.3). */
export interface InvestigationSnapshot {
  investigationId: string;
  status: string;
  outcome: string;
  headline: string;
  personName: string;
  personEmail: string;
  detectionId: string;
  detectionName: string;
  riskScore: number | null;
  /**
   * The report content (summary, confidence, recommended action, findings, person context...),
   * any JSON value. Leave out timestamps such as updated_at: they change on a resend without the
   * content changing.
   */
  report: unknown;
}

/** What an investigation notification says (SPEC §6.3 investigation_metadata, plus the body's risk score). */
export interface InvestigationUpdate extends Omit<InvestigationSnapshot, 'report'> {
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
