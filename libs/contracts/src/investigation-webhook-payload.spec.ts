import type { InvestigationWebhookDecision } from './investigation-decision';
import { buildInvestigationWebhookPayload } from './investigation-webhook-payload';

function anInvestigationDecision(
  overrides: Partial<InvestigationWebhookDecision> = {},
): InvestigationWebhookDecision {
  return {
    kind: 'investigation-webhook',
    channel: 'webhook',
    notificationId: 'b1c2d3e4-0000-5000-8000-000000000002',
    fingerprint: 'abc123',
    investigationId: 'inv-7',
    status: 'completed',
    outcome: 'confirmed_risk',
    headline: 'Credential sharing by Ada',
    personName: 'Ada Lovelace',
    personEmail: 'ada@example.com',
    detectionId: 'det-42',
    detectionName: 'Password sharing',
    riskScore: 8.5,
    decidedAt: Date.UTC(2024, 4, 2, 9, 30),
    providerIds: ['provider-1'],
    ...overrides,
  };
}

describe('buildInvestigationWebhookPayload', () => {
  it('renders every field of SPEC §6.3', () => {
    const payload = buildInvestigationWebhookPayload(
      anInvestigationDecision(),
      { id: 'delivery-9', recipientName: 'SOAR' },
      'https://vigil.example.com/',
    );
    expect(payload).toEqual({
      notification: {
        id: 'b1c2d3e4-0000-5000-8000-000000000002',
        title: 'Investigation Update: Credential sharing by Ada',
        body: [
          'The investigation for Ada Lovelace has been completed.',
          'Outcome: Confirmed risk',
          'Risk score: 8.5',
        ].join('\n'),
        action_url: 'https://vigil.example.com/u/investigations/inv-7',
      },
      delivery: { id: 'delivery-9', recipient_name: 'SOAR', channel: 'webhook' },
      investigation_metadata: {
        investigation_id: 'inv-7',
        status: 'completed',
        outcome: 'confirmed_risk',
        headline: 'Credential sharing by Ada',
        person_name: 'Ada Lovelace',
        person_email: 'ada@example.com',
        detection_name: 'Password sharing',
      },
    });
    expect(payload).not.toHaveProperty('metadata');
  });

  it('says the investigation was updated when it is not completed, and a missing risk score', () => {
    const payload = buildInvestigationWebhookPayload(
      anInvestigationDecision({ status: 'in_review', outcome: 'no_risk', riskScore: null }),
      { id: 'd', recipientName: 'n' },
      'https://vigil.example.com',
    );
    expect(payload.notification.body).toBe(
      [
        'The investigation for Ada Lovelace has been updated (status: in_review).',
        'Outcome: No risk',
        'Risk score: not available',
      ].join('\n'),
    );
  });
});
