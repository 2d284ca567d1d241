import type { InvestigationRecord } from '@vigil/contracts';
import type { InvestigationSnapshot } from '@vigil/notification-policy';

/** What an investigation notification is about; updated_at is left out (a resend changes it). */
export function toInvestigationSnapshot(record: InvestigationRecord): InvestigationSnapshot {
  return {
    investigationId: record.id,
    status: record.status,
    outcome: record.outcome ?? '',
    headline: record.headline,
    personName: record.person.name,
    personEmail: record.person.email,
    detectionId: record.detection.id,
    detectionName: record.detection.name,
    riskScore: record.risk_score,
    report: {
      summary: record.summary,
      confidence: record.confidence,
      recommendedAction: record.recommended_action,
      riskScore: record.risk_score,
      findings: record.findings,
      person: {
        role: record.person.role,
        department: record.person.department,
        manager: record.person.manager,
      },
    },
  };
}
