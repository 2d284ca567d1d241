import { decide } from './decide';
import {
  describeDryRunReason,
  describeDryRunWhen,
  dryRunDetection,
  type DryRunProvider,
} from './dry-run-detection';
import { addEvents, deepFreeze, HOUR, MINUTE, settings, stateWith, T0 } from './testing/factories';

const PROVIDERS: DryRunProvider[] = [
  { id: 'tines', name: 'Tines' },
  { id: 'soar', name: 'SOAR' },
];

describe('dryRunDetection', () => {
  it('reports the decisions decide would make now, sent immediately, to every target', () => {
    const state = stateWith(3);
    const config = settings({ webhookProviderIds: ['tines', 'soar'] });
    const run = dryRunDetection(state, config, PROVIDERS, T0 + MINUTE);
    const { decisions } = decide(state, config, T0 + MINUTE);
    expect(run.webhook).toMatchObject({ fires: true, when: { kind: 'immediately' } });
    expect(run.email).toMatchObject({ channel: 'email', fires: true });
    expect([
      run.webhook.fires && run.webhook.decision,
      run.email.fires && run.email.decision,
    ]).toEqual(decisions);
    expect(run.webhook.targets).toEqual([
      { id: 'tines', name: 'Tines', reason: null },
      { id: 'soar', name: 'SOAR', reason: null },
    ]);
    expect(run.email.targets).toEqual([
      { id: 'soc@example.com', name: 'soc@example.com', reason: null },
    ]);
  });

  it('reports a Batch email as the detection’s digest entry, sent when the window closes', () => {
    const run = dryRunDetection(
      stateWith(2),
      settings({ frequency: 'batch' }),
      PROVIDERS,
      T0 + 5 * MINUTE,
    );
    expect(run.email).toMatchObject({
      channel: 'digest',
      fires: true,
      when: { kind: 'window_close', at: T0 + HOUR },
      decision: { kind: 'digest-entry', windowNewCount: 2 },
    });
    expect(describeDryRunWhen(run.email.fires ? run.email.when : { kind: 'immediately' })).toBe(
      'At the close of the current batch window, at 2024-05-01 11:00:00 UTC',
    );
  });

  it('says the count has not risen since the last notification, with when that was', () => {
    const config = settings();
    const notified = decide(stateWith(3), config, T0 + MINUTE).state;
    const run = dryRunDetection(notified, config, PROVIDERS, T0 + HOUR);
    const reason = {
      code: 'count_not_risen',
      count: 3,
      lastNotifiedCount: 3,
      lastNotifiedAt: T0 + MINUTE,
    };
    expect(run.webhook).toMatchObject({ fires: false, reason });
    expect(run.email).toMatchObject({ fires: false, reason });
    expect(run.webhook.targets).toEqual([{ id: 'tines', name: 'Tines', reason }]);
    expect(describeDryRunReason(reason as never)).toBe(
      'The event count has not risen since the last notification, at count 3 on 2024-05-01 10:01:00 UTC.',
    );
  });

  it('says the threshold is not exceeded, with the count and the threshold', () => {
    const run = dryRunDetection(
      stateWith(3),
      settings({ frequency: 'threshold', threshold: 5 }),
      PROVIDERS,
      T0,
    );
    const reason = { code: 'threshold_not_exceeded', count: 3, threshold: 5 } as const;
    expect(run.webhook).toMatchObject({ fires: false, reason });
    expect(describeDryRunReason(reason)).toBe(
      'The event count (3) does not exceed the threshold (5).',
    );
  });

  it('says until when a snooze silences every channel, and that a disable has no end', () => {
    const snoozed = settings({ silence: { kind: 'snoozed', until: T0 + HOUR } });
    const run = dryRunDetection(stateWith(3), snoozed, PROVIDERS, T0);
    expect(run.webhook).toMatchObject({
      fires: false,
      reason: { code: 'silenced_until', until: T0 + HOUR },
    });
    expect(describeDryRunReason({ code: 'silenced_until', until: T0 + HOUR })).toBe(
      'Silenced until 2024-05-01 11:00:00 UTC.',
    );
    const disabled = dryRunDetection(
      stateWith(3),
      settings({ silence: { kind: 'disabled' } }),
      PROVIDERS,
      T0,
    );
    expect(disabled.email).toMatchObject({ fires: false, reason: { code: 'disabled' } });
    // A snooze that has ended silences nothing.
    expect(dryRunDetection(stateWith(3), snoozed, PROVIDERS, T0 + HOUR).webhook.fires).toBe(true);
  });

  it('says when a channel is off or has nobody to send to', () => {
    const off = dryRunDetection(
      stateWith(1),
      settings({ webhookEnabled: false, emailEnabled: false }),
      PROVIDERS,
      T0,
    );
    expect(off.webhook).toMatchObject({ fires: false, reason: { code: 'channel_off' } });
    expect(off.email).toMatchObject({ fires: false, reason: { code: 'channel_off' } });
    const empty = dryRunDetection(
      stateWith(1),
      settings({ webhookProviderIds: [], recipients: [] }),
      PROVIDERS,
      T0,
    );
    expect(empty.webhook).toMatchObject({ reason: { code: 'no_providers' }, targets: [] });
    expect(empty.email).toMatchObject({ reason: { code: 'no_recipients' }, targets: [] });
  });

  it('marks a selected provider that is no longer enrolled, while the others are sent to', () => {
    const config = settings({ webhookProviderIds: ['tines', 'deleted', 'tines'] });
    const run = dryRunDetection(stateWith(1), config, PROVIDERS, T0);
    expect(run.webhook.fires).toBe(true);
    expect(run.webhook.targets).toEqual([
      { id: 'tines', name: 'Tines', reason: null },
      { id: 'deleted', name: null, reason: { code: 'provider_not_enrolled' } },
    ]);
  });

  it('marks a disabled provider, ahead of its filter, while the others are sent to', () => {
    const providers: DryRunProvider[] = [
      { id: 'tines', name: 'Tines' },
      {
        id: 'slack',
        name: 'Slack',
        disabledAt: T0 - 1_000,
        filter: { subjects: 'all', minRiskScore: 9, sources: [] },
      },
    ];
    const run = dryRunDetection(
      stateWith(1),
      settings({ webhookProviderIds: ['tines', 'slack'] }),
      providers,
      T0,
    );
    expect(run.webhook.targets).toEqual([
      { id: 'tines', name: 'Tines', reason: null },
      { id: 'slack', name: 'Slack', reason: { code: 'provider_disabled', since: T0 - 1_000 } },
    ]);
    expect(
      describeDryRunReason({ code: 'provider_disabled', since: Date.UTC(2024, 4, 1, 10) }),
    ).toBe(
      'This provider has been disabled since 2024-05-01 10:00:00 UTC: the notification would be recorded as skipped, and sent if an admin enables it with recover.',
    );
  });

  it("marks a provider whose filter holds the notification back, with its filter's reason", () => {
    // Events 1..3 score 0.1 to 0.3 and come from okta.
    const providers: DryRunProvider[] = [
      { id: 'tines', name: 'Tines', filter: { subjects: 'all', minRiskScore: 5, sources: [] } },
      {
        id: 'soar',
        name: 'SOAR',
        filter: { subjects: 'all', minRiskScore: null, sources: ['okta'] },
      },
      {
        id: 'gh',
        name: 'GitHub',
        filter: { subjects: 'all', minRiskScore: null, sources: ['github'] },
      },
    ];
    const config = settings({ webhookProviderIds: ['tines', 'soar', 'gh'] });
    const run = dryRunDetection(stateWith(3), config, providers, T0);
    expect(run.webhook.fires).toBe(true);
    expect(run.webhook.targets).toEqual([
      {
        id: 'tines',
        name: 'Tines',
        reason: { code: 'filtered_risk_score', riskScore: 0.3, minRiskScore: 5 },
      },
      { id: 'soar', name: 'SOAR', reason: null },
      {
        id: 'gh',
        name: 'GitHub',
        reason: { code: 'filtered_source', sources: ['okta'], wanted: ['github'] },
      },
    ]);
    expect(describeDryRunReason(run.webhook.targets[0].reason!)).toBe(
      "Filtered out: risk score 0.3 is below this provider's minimum of 5.",
    );
  });

  it('changes nothing it is given', () => {
    const state = deepFreeze(addEvents(stateWith(3), 4, 6));
    const config = deepFreeze(settings({ frequency: 'batch' }));
    expect(() => dryRunDetection(state, config, deepFreeze(PROVIDERS), T0)).not.toThrow();
  });

  it('has words for every reason', () => {
    expect(describeDryRunReason({ code: 'disabled' })).toBe(
      'Notifications are disabled until someone resumes them.',
    );
    expect(describeDryRunReason({ code: 'channel_off' })).toBe(
      'This channel is off in the settings in force.',
    );
    expect(describeDryRunReason({ code: 'no_providers' })).toBe(
      'Webhooks are on, but no provider is selected.',
    );
    expect(describeDryRunReason({ code: 'no_recipients' })).toBe(
      'Email is on, but there are no recipients.',
    );
    expect(describeDryRunReason({ code: 'provider_not_enrolled' })).toBe(
      'This provider is no longer enrolled: nothing is sent to it.',
    );
    expect(describeDryRunWhen({ kind: 'immediately' })).toBe('Immediately');
  });
});
