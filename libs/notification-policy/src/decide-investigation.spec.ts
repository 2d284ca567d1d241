import { decideInvestigation } from './decide-investigation';
import type { InvestigationSnapshot } from './investigation-snapshot';
import { investigationFingerprint } from './investigation-fingerprint';
import { investigationNotificationId } from './notification-ids';
import { HOUR, settings, T0 } from './testing/factories';

function investigation(overrides: Partial<InvestigationSnapshot> = {}): InvestigationSnapshot {
  return {
    investigationId: '0b7e2f9a-1c3d-4e5f-8a9b-0c1d2e3f4a5b',
    status: 'completed',
    outcome: 'confirmed_risk',
    headline: 'Sign-ins from two countries within an hour',
    personName: 'Ann Lee',
    personEmail: 'ann@example.com',
    detectionId: 'det-1',
    detectionName: 'Impossible travel',
    riskScore: 8.5,
    report: {
      summary: 'Credentials likely compromised.',
      confidence: 'high',
      recommendedAction: 'Reset the password',
      findings: [{ title: 'VPN', description: 'No VPN in use', evidence: ['log 1'] }],
    },
    ...overrides,
  };
}

describe('decideInvestigation', () => {
  it('notifies a new investigation immediately on both channels', () => {
    const result = decideInvestigation(null, investigation(), settings({ frequency: 'batch' }), T0);
    const fingerprint = investigationFingerprint(investigation());
    expect(result.fingerprint).toBe(fingerprint);
    expect(result.decisions).toEqual([
      expect.objectContaining({
        kind: 'investigation-webhook',
        channel: 'webhook',
        providerIds: ['tines'],
        notificationId: investigationNotificationId(
          investigation().investigationId,
          fingerprint,
          'webhook',
        ),
        status: 'completed',
        outcome: 'confirmed_risk',
        headline: 'Sign-ins from two countries within an hour',
        personName: 'Ann Lee',
        personEmail: 'ann@example.com',
        detectionName: 'Impossible travel',
        riskScore: 8.5,
        decidedAt: T0,
      }),
      expect.objectContaining({ kind: 'investigation-email', recipients: ['soc@example.com'] }),
    ]);
    expect(result.decisions[0]).not.toHaveProperty('report');
  });

  it('sends nothing when identical content is sent again', () => {
    const first = decideInvestigation(null, investigation(), settings(), T0);
    expect(decideInvestigation(first.fingerprint, investigation(), settings(), T0 + HOUR)).toEqual({
      fingerprint: first.fingerprint,
      decisions: [],
    });
  });

  it('ignores the order of keys in the report', () => {
    const reordered = investigation({
      report: {
        findings: [{ evidence: ['log 1'], description: 'No VPN in use', title: 'VPN' }],
        recommendedAction: 'Reset the password',
        confidence: 'high',
        summary: 'Credentials likely compromised.',
      },
    });
    expect(investigationFingerprint(reordered)).toBe(investigationFingerprint(investigation()));
  });

  it.each([
    ['status', { status: 'reopened' }],
    ['outcome', { outcome: 'no_risk' }],
    ['headline', { headline: 'Updated headline' }],
    ['report', { report: { summary: 'Benign: travelling employee.' } }],
  ])('notifies again when the %s changes, with a new notification id', (_field, change) => {
    const first = decideInvestigation(null, investigation(), settings(), T0);
    const second = decideInvestigation(
      first.fingerprint,
      investigation(change),
      settings(),
      T0 + 1,
    );
    expect(second.decisions).toHaveLength(2);
    expect(second.fingerprint).not.toBe(first.fingerprint);
    expect(second.decisions[0].notificationId).not.toBe(first.decisions[0].notificationId);
  });

  it('does not treat a change of context fields (person name, risk score) as an update', () => {
    const first = decideInvestigation(null, investigation(), settings(), T0);
    const changed = investigation({ personName: 'Ann B. Lee', riskScore: 9 });
    expect(decideInvestigation(first.fingerprint, changed, settings(), T0).decisions).toEqual([]);
  });

  it('gives the same notification ids on a replay', () => {
    const a = decideInvestigation(null, investigation(), settings(), T0);
    const b = decideInvestigation(null, investigation(), settings(), T0 + HOUR);
    expect(b.decisions.map((d) => d.notificationId)).toEqual(
      a.decisions.map((d) => d.notificationId),
    );
  });

  it("follows the detection's channels and targets", () => {
    const webhookOnly = settings({ emailEnabled: false, webhookProviderIds: ['a', 'b'] });
    const result = decideInvestigation(null, investigation(), webhookOnly, T0);
    expect(result.decisions).toEqual([
      expect.objectContaining({ kind: 'investigation-webhook', providerIds: ['a', 'b'] }),
    ]);
    const emailOnly = settings({ webhookProviderIds: [] });
    expect(
      decideInvestigation(null, investigation(), emailOnly, T0).decisions.map((d) => d.kind),
    ).toEqual(['investigation-email']);
  });

  it('is never held back by the threshold', () => {
    const threshold = settings({ frequency: 'threshold', threshold: 1000 });
    expect(decideInvestigation(null, investigation(), threshold, T0).decisions).toHaveLength(2);
  });

  it('sends nothing while silenced and keeps the previous fingerprint, so the content goes out on the next resend', () => {
    const disabled = settings({ silence: { kind: 'disabled' } });
    const silenced = decideInvestigation(null, investigation(), disabled, T0);
    expect(silenced).toEqual({ fingerprint: null, decisions: [] });
    const later = decideInvestigation(silenced.fingerprint, investigation(), settings(), T0 + 1);
    expect(later.decisions).toHaveLength(2);
  });

  it('sends again after a snooze has ended', () => {
    const snoozed = settings({ silence: { kind: 'snoozed', until: T0 + HOUR } });
    expect(decideInvestigation(null, investigation(), snoozed, T0).decisions).toEqual([]);
    expect(decideInvestigation(null, investigation(), snoozed, T0 + HOUR).decisions).toHaveLength(
      2,
    );
  });

  it('keeps the previous fingerprint when no channel can deliver', () => {
    const none = settings({ emailEnabled: false, webhookEnabled: false });
    expect(decideInvestigation('old', investigation(), none, T0)).toEqual({
      fingerprint: 'old',
      decisions: [],
    });
  });
});
