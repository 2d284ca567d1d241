import { randomUUID } from 'node:crypto';

let sequence = 0;

/** A valid detection event as a connector would send it over HTTP. */
export function anEventInput(overrides: Record<string, unknown> = {}): Record<string, any> {
  sequence += 1;
  return {
    id: `evt-${randomUUID()}`,
    detection_id: 'det-default',
    detection_name: 'Impossible travel',
    issue_type: 'impossible_travel',
    employee_email: 'ada@example.com',
    employee_name: 'Ada Lovelace',
    asset_name: 'okta',
    happened: new Date(Date.UTC(2025, 4, 1, 12, 0, 0, sequence % 1000)).toISOString(),
    risk_score: 7.5,
    source: 'okta',
    high_prevalence: false,
    allowlisted: false,
    ...overrides,
  };
}

export function anInvestigationInput(overrides: Record<string, unknown> = {}): Record<string, any> {
  return {
    id: `inv-${randomUUID()}`,
    status: 'completed',
    outcome: 'confirmed_risk',
    headline: 'Credential sharing by Ada',
    summary: 'Ada shared a password with a contractor over chat.',
    confidence: 'high',
    recommended_action: 'Reset the password and brief Ada on the policy.',
    risk_score: 8.5,
    findings: [
      {
        title: 'Password shared',
        description: 'Seen in a chat export',
        evidence: ['msg-17', 'msg-18'],
      },
    ],
    person: {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      role: 'Engineer',
      department: 'R&D',
      manager: 'Charles Babbage',
    },
    detection: { id: 'det-default', name: 'Password sharing' },
    updated_at: '2025-05-02T09:30:00.000Z',
    ...overrides,
  };
}
