import type { DetectionEventRecord } from '../detection-event';
import type { InvestigationRecord } from '../investigation';

let sequence = 0;

/** A detection event as the indexer writes it to the read model. */
export function anEventRecord(overrides: Partial<DetectionEventRecord> = {}): DetectionEventRecord {
  sequence += 1;
  return {
    id: `evt-${String(sequence).padStart(6, '0')}-${Math.random().toString(36).slice(2, 8)}`,
    detection_id: 'det-default',
    detection_name: 'Impossible travel',
    issue_type: 'impossible_travel',
    employee_email: 'ada@example.com',
    employee_name: 'Ada Lovelace',
    asset_name: 'laptop-17',
    happened: Date.UTC(2025, 4, 1, 12, 0, 0, sequence % 1000),
    risk_score: 7.5,
    source: 'okta',
    high_prevalence: false,
    allowlisted: false,
    description: 'impossible travel on okta',
    ...overrides,
  };
}

export function anInvestigationRecord(
  overrides: Partial<InvestigationRecord> = {},
): InvestigationRecord {
  return {
    id: `inv-${Math.random().toString(36).slice(2, 10)}`,
    status: 'completed',
    outcome: 'confirmed_risk',
    headline: 'Credential sharing by Ada',
    summary: 'Ada shared a password with a contractor over chat.',
    confidence: 'high',
    recommended_action: 'Reset the password and brief Ada on the policy.',
    risk_score: 8.5,
    findings: [
      { title: 'Password shared', description: 'Seen in a chat export', evidence: ['m-17'] },
    ],
    person: {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      role: 'Engineer',
      department: null,
      manager: 'Charles Babbage',
    },
    detection: { id: 'det-default', name: 'Password sharing' },
    updated_at: Date.UTC(2025, 4, 2, 9, 30, 0, 5),
    ...overrides,
  };
}
