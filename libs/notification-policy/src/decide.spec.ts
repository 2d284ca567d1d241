import type {
  DigestEntryDecision,
  EmailDecision,
  NotificationDecision,
  WebhookDecision,
} from '@vigil/contracts';
import { applyEvents } from './apply-events';
import { decide } from './decide';
import type { DetectionState } from './detection-state';
import { detectionNotificationId, digestEntryKey } from './notification-ids';
import type { NotificationSettings } from './notification-settings';
import {
  addEvents,
  deepFreeze,
  DETECTION_ID,
  event,
  HOUR,
  MINUTE,
  settings,
  stateWith,
  T0,
} from './testing/factories';

const webhookOf = (decisions: NotificationDecision[]): WebhookDecision | undefined =>
  decisions.find((d): d is WebhookDecision => d.kind === 'webhook');
const emailOf = (decisions: NotificationDecision[]): EmailDecision | undefined =>
  decisions.find((d): d is EmailDecision => d.kind === 'email');
const digestOf = (decisions: NotificationDecision[]): DigestEntryDecision | undefined =>
  decisions.find((d): d is DigestEntryDecision => d.kind === 'digest-entry');
const kinds = (decisions: NotificationDecision[]): string[] => decisions.map((d) => d.kind);

/** Adds events from..to at `now`, then decides at `now`. */
function recalculate(
  state: DetectionState,
  from: number,
  to: number,
  config: NotificationSettings,
  now: number,
) {
  return decide(addEvents(state, from, to, now), config, now);
}

describe('decide — Immediate', () => {
  const immediate = settings({
    frequency: 'immediate',
    recipients: ['soc@example.com', 'ciso@example.com'],
    webhookProviderIds: ['tines', 'custom-hook'],
  });

  it('sends one webhook for every selected provider and one email to all recipients when the count rose', () => {
    const { decisions } = decide(stateWith(3), immediate, T0 + MINUTE);
    expect(kinds(decisions)).toEqual(['webhook', 'email']);
    expect(webhookOf(decisions)?.providerIds).toEqual(['tines', 'custom-hook']);
    expect(emailOf(decisions)?.recipients).toEqual(['soc@example.com', 'ciso@example.com']);
  });

  it('reports the first notification as everything since the first event', () => {
    const { decisions } = decide(stateWith(3), immediate, T0 + MINUTE);
    expect(webhookOf(decisions)).toEqual({
      kind: 'webhook',
      channel: 'webhook',
      notificationId: detectionNotificationId(DETECTION_ID, 'webhook', 3),
      detectionId: DETECTION_ID,
      detectionName: 'Impossible travel',
      previousCount: 0,
      currentCount: 3,
      since: T0 + 1000,
      eventCount: 3,
      userCount: 3,
      affectedUsers: [
        { email: 'person1@example.com', name: 'Person 1' },
        { email: 'person2@example.com', name: 'Person 2' },
        { email: 'person0@example.com', name: 'Person 0' },
      ],
      events: [1, 2, 3].map((n) => {
        const {
          detectionId: _d,
          detectionName: _n,
          riskScore: _r,
          source: _s,
          ...summary
        } = event(n);
        return summary;
      }),
      truncatedCount: 0,
      decidedAt: T0 + MINUTE,
      maxRiskScore: 0.3,
      sources: ['okta'],
      providerIds: ['tines', 'custom-hook'],
    });
  });

  it('records each channel as notified at the current count and time', () => {
    const { state } = decide(stateWith(3), immediate, T0 + MINUTE);
    expect(state.channels.webhook).toEqual({
      lastNotifiedCount: 3,
      lastNotifiedAt: T0 + MINUTE,
      digest: null,
      newMaxRiskScore: null,
      newSources: [],
    });
    expect(state.channels.email).toEqual({
      lastNotifiedCount: 3,
      lastNotifiedAt: T0 + MINUTE,
      digest: null,
      newMaxRiskScore: null,
      newSources: [],
    });
  });

  it('sends nothing when the count did not rise', () => {
    const first = decide(stateWith(3), immediate, T0);
    const again = decide(first.state, immediate, T0 + HOUR);
    expect(again.decisions).toEqual([]);
    expect(again.state).toBe(first.state);
  });

  it('sends nothing when only duplicates arrived', () => {
    const first = decide(stateWith(3), immediate, T0);
    const retried = applyEvents(first.state, [event(2), event(3)], T0 + MINUTE).state;
    expect(decide(retried, immediate, T0 + MINUTE).decisions).toEqual([]);
  });

  it('reports only the events since the previous notification, and since when', () => {
    const first = decide(stateWith(3), immediate, T0 + MINUTE);
    const { decisions } = recalculate(first.state, 4, 5, immediate, T0 + 2 * MINUTE);
    expect(webhookOf(decisions)).toMatchObject({
      previousCount: 3,
      currentCount: 5,
      eventCount: 2,
      since: T0 + MINUTE,
      events: [{ id: 'evt-4' }, { id: 'evt-5' }],
      truncatedCount: 0,
    });
    expect(emailOf(decisions)).toMatchObject({ previousCount: 3, currentCount: 5, eventCount: 2 });
  });

  it('gives the same notification ids when the same input is replayed', () => {
    const state = stateWith(3);
    const a = decide(state, immediate, T0).decisions.map((d) => d.notificationId);
    const b = decide(structuredClone(state), immediate, T0 + HOUR).decisions.map(
      (d) => d.notificationId,
    );
    expect(b).toEqual(a);
    expect(new Set(a).size).toBe(2);
    expect(a[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('does not mutate the state it is given', () => {
    const state = deepFreeze(stateWith(3));
    expect(() => decide(state, immediate, T0)).not.toThrow();
  });
});

describe('decide — channels that cannot deliver', () => {
  it('sends no email when email is disabled', () => {
    expect(kinds(decide(stateWith(2), settings({ emailEnabled: false }), T0).decisions)).toEqual([
      'webhook',
    ]);
  });

  it('sends no email when there are no recipients', () => {
    expect(kinds(decide(stateWith(2), settings({ recipients: [] }), T0).decisions)).toEqual([
      'webhook',
    ]);
  });

  it('sends no webhook when webhooks are disabled', () => {
    expect(kinds(decide(stateWith(2), settings({ webhookEnabled: false }), T0).decisions)).toEqual([
      'email',
    ]);
  });

  it('sends no webhook when no provider is selected', () => {
    expect(kinds(decide(stateWith(2), settings({ webhookProviderIds: [] }), T0).decisions)).toEqual(
      ['email'],
    );
  });

  it("keeps a disabled channel's count, so once enabled it reports everything since its last notification, attaching the events not yet reported elsewhere", () => {
    const emailOnly = settings({ webhookEnabled: false });
    const first = decide(stateWith(2), emailOnly, T0);
    expect(first.state.channels.webhook.lastNotifiedCount).toBe(0);
    const { decisions } = recalculate(first.state, 3, 4, settings(), T0 + MINUTE);
    expect(webhookOf(decisions)).toMatchObject({
      previousCount: 0,
      currentCount: 4,
      eventCount: 4,
      since: T0 + 1000,
    });
    // Email reported evt-1 and evt-2 while webhooks were off: they were not kept for webhooks.
    expect(webhookOf(decisions)?.events.map((e) => e.id)).toEqual(['evt-3', 'evt-4']);
    expect(webhookOf(decisions)?.truncatedCount).toBe(2);
    expect(emailOf(decisions)).toMatchObject({ previousCount: 2, eventCount: 2 });
  });
});

describe('decide — max events per notification', () => {
  const capped = settings({ maxEventsPerNotification: 2 });

  it('attaches the newest N new events in chronological order and counts the others as truncated', () => {
    const { decisions } = decide(stateWith(5), capped, T0);
    const webhook = webhookOf(decisions);
    expect(webhook?.events.map((e) => e.id)).toEqual(['evt-4', 'evt-5']);
    expect(webhook).toMatchObject({ eventCount: 5, truncatedCount: 3 });
    expect(emailOf(decisions)).toMatchObject({ eventCount: 5, truncatedCount: 3 });
  });

  it('caps affected users the same way and keeps user_count exact', () => {
    const webhook = webhookOf(decide(stateWith(5), capped, T0).decisions);
    expect(webhook?.affectedUsers).toHaveLength(2);
    expect(webhook?.userCount).toBe(3);
  });

  it('attaches only events that are new to the channel', () => {
    const first = decide(stateWith(3), capped, T0);
    const webhook = webhookOf(recalculate(first.state, 4, 4, capped, T0 + 1).decisions);
    expect(webhook?.events.map((e) => e.id)).toEqual(['evt-4']);
    expect(webhook?.truncatedCount).toBe(0);
  });

  it('picks the most recently received events and presents them by time when they arrive out of order', () => {
    const state = applyEvents(stateWith(1), [event(9)], T0).state;
    const late = applyEvents(state, [event(5)], T0).state;
    const webhook = webhookOf(decide(late, capped, T0).decisions);
    expect(webhook?.events.map((e) => e.id)).toEqual(['evt-5', 'evt-9']);
  });

  it('counts exactly when the event buffer held fewer events than the cap', () => {
    const state = stateWith(6, T0, { eventBufferLimit: 2 });
    const webhook = webhookOf(
      decide(state, settings({ maxEventsPerNotification: 4 }), T0).decisions,
    );
    expect(webhook?.events.map((e) => e.id)).toEqual(['evt-5', 'evt-6']);
    expect(webhook).toMatchObject({ eventCount: 6, truncatedCount: 4 });
  });

  it('drops buffered events once every sending channel has reported them', () => {
    expect(decide(stateWith(3), settings(), T0).state.pendingEvents).toEqual([]);
    // A disabled channel holds nothing back: a detection's state stays small.
    const webhookOnly = settings({ emailEnabled: false });
    expect(decide(stateWith(3), webhookOnly, T0).state.pendingEvents).toEqual([]);
  });

  it('keeps buffered events for an enabled channel that has not reported them yet', () => {
    const highThreshold = settings({ frequency: 'threshold', threshold: 10 });
    expect(decide(stateWith(3), highThreshold, T0).state.pendingEvents).toHaveLength(3);
  });

  it('keeps at most the newest max-events-per-notification events', () => {
    const state = decide(
      stateWith(5),
      settings({ webhookEnabled: false, emailEnabled: false }),
      T0,
    ).state;
    expect(state.pendingEvents).toHaveLength(5);
    const capped = decide(
      stateWith(5),
      settings({ frequency: 'threshold', threshold: 10, maxEventsPerNotification: 2 }),
      T0,
    ).state;
    expect(capped.pendingEvents.map((e) => e.id)).toEqual(['evt-4', 'evt-5']);
  });
});

describe('decide — Threshold', () => {
  const threshold = (value: number | null) =>
    settings({ frequency: 'threshold', threshold: value });

  it('sends nothing while the count equals the threshold', () => {
    expect(decide(stateWith(5), threshold(5), T0).decisions).toEqual([]);
  });

  it('sends nothing below the threshold and keeps counting', () => {
    const { state, decisions } = decide(stateWith(3), threshold(5), T0);
    expect(decisions).toEqual([]);
    expect(state.channels.webhook.lastNotifiedCount).toBe(0);
  });

  it('fires webhook and email immediately once the count exceeds the threshold, reporting every event so far', () => {
    const below = decide(stateWith(5), threshold(5), T0);
    const { decisions } = recalculate(below.state, 6, 6, threshold(5), T0 + MINUTE);
    expect(kinds(decisions)).toEqual(['webhook', 'email']);
    expect(webhookOf(decisions)).toMatchObject({
      previousCount: 0,
      currentCount: 6,
      eventCount: 6,
    });
  });

  it('needs the count to rise again before firing again', () => {
    const fired = decide(stateWith(6), threshold(5), T0);
    expect(decide(fired.state, threshold(5), T0 + MINUTE).decisions).toEqual([]);
    const { decisions } = recalculate(fired.state, 7, 7, threshold(5), T0 + 2 * MINUTE);
    expect(webhookOf(decisions)).toMatchObject({
      previousCount: 6,
      currentCount: 7,
      eventCount: 1,
    });
  });

  it('stops firing when the threshold is raised above the count', () => {
    const fired = decide(stateWith(6), threshold(5), T0);
    expect(recalculate(fired.state, 7, 8, threshold(10), T0 + MINUTE).decisions).toEqual([]);
  });

  it('fires on the first event with a threshold of 0', () => {
    expect(kinds(decide(stateWith(1), threshold(0), T0).decisions)).toEqual(['webhook', 'email']);
  });

  it('treats a missing threshold as 0 rather than never notifying', () => {
    expect(decide(stateWith(1), threshold(null), T0).decisions).toHaveLength(2);
  });

  it('ignores the threshold outside Threshold mode', () => {
    const immediate = settings({ frequency: 'immediate', threshold: 100 });
    expect(decide(stateWith(1), immediate, T0).decisions).toHaveLength(2);
  });
});

describe('decide — Batch', () => {
  const batch = settings({ frequency: 'batch', batchWindowMinutes: 60 });

  it('sends the webhook immediately and adds the detection to the digest of the current window', () => {
    const { decisions } = decide(stateWith(3), batch, T0 + 10 * MINUTE);
    expect(kinds(decisions)).toEqual(['webhook', 'digest-entry']);
    expect(digestOf(decisions)).toMatchObject({
      channel: 'email',
      recipients: ['soc@example.com'],
      windowStart: T0,
      windowEnd: T0 + HOUR,
      entryKey: digestEntryKey(DETECTION_ID, T0, T0 + HOUR),
      windowNewCount: 3,
      windowBaseCount: 0,
      windowSince: T0 + 1000,
      currentCount: 3,
      previousCount: 0,
      eventCount: 3,
      userCount: 3,
      notificationId: detectionNotificationId(DETECTION_ID, 'email', 3),
    });
    expect(digestOf(decisions)?.affectedUsers).toHaveLength(3);
  });

  it('aligns windows to the epoch with the configured length', () => {
    const quarter = settings({ frequency: 'batch', batchWindowMinutes: 15 });
    const entry = digestOf(decide(stateWith(1), quarter, T0 + 20 * MINUTE).decisions);
    expect(entry).toMatchObject({ windowStart: T0 + 15 * MINUTE, windowEnd: T0 + 30 * MINUTE });
  });

  it('updates the same entry when the detection rises again in the same window, covering the whole window', () => {
    const first = decide(stateWith(3), batch, T0 + 10 * MINUTE);
    const { decisions } = recalculate(first.state, 4, 5, batch, T0 + 50 * MINUTE);
    const entry = digestOf(decisions);
    expect(entry).toMatchObject({
      entryKey: digestOf(first.decisions)?.entryKey,
      windowNewCount: 5,
      currentCount: 5,
      previousCount: 3,
      eventCount: 2,
    });
    expect(entry?.notificationId).not.toBe(digestOf(first.decisions)?.notificationId);
    expect(kinds(decisions)).toEqual(['webhook', 'digest-entry']);
  });

  it('starts a new entry in the next window, counting from the count at the end of the previous one', () => {
    const first = decide(stateWith(3), batch, T0 + 10 * MINUTE);
    const second = recalculate(first.state, 4, 5, batch, T0 + 50 * MINUTE);
    const { decisions } = recalculate(second.state, 6, 6, batch, T0 + 70 * MINUTE);
    expect(digestOf(decisions)).toMatchObject({
      windowStart: T0 + HOUR,
      windowEnd: T0 + 2 * HOUR,
      entryKey: digestEntryKey(DETECTION_ID, T0 + HOUR, T0 + 2 * HOUR),
      windowNewCount: 1,
      windowBaseCount: 5,
      windowSince: T0 + 50 * MINUTE,
    });
  });

  it('adds nothing to a window in which the detection did not rise', () => {
    const first = decide(stateWith(3), batch, T0 + 10 * MINUTE);
    expect(decide(first.state, batch, T0 + 70 * MINUTE).decisions).toEqual([]);
  });

  it('does not batch webhooks', () => {
    const first = decide(stateWith(3), batch, T0);
    const { decisions } = recalculate(first.state, 4, 4, batch, T0 + MINUTE);
    expect(webhookOf(decisions)).toMatchObject({ previousCount: 3, currentCount: 4 });
  });

  it('starts a new window when the window length changes', () => {
    const first = decide(stateWith(3), batch, T0 + 10 * MINUTE);
    const shorter = settings({ frequency: 'batch', batchWindowMinutes: 30 });
    const entry = digestOf(recalculate(first.state, 4, 4, shorter, T0 + 40 * MINUTE).decisions);
    expect(entry).toMatchObject({
      windowStart: T0 + 30 * MINUTE,
      windowNewCount: 1,
      windowBaseCount: 3,
    });
  });

  it('switching from Batch to Immediate sends an email with the events not yet in a digest entry', () => {
    const first = decide(stateWith(3), batch, T0);
    const immediate = settings({ frequency: 'immediate' });
    const email = emailOf(recalculate(first.state, 4, 5, immediate, T0 + MINUTE).decisions);
    expect(email).toMatchObject({ previousCount: 3, currentCount: 5, eventCount: 2, since: T0 });
  });
});

describe('decide — silencing', () => {
  it('sends nothing while disabled and leaves the state as it is', () => {
    const state = stateWith(3);
    const result = decide(state, settings({ silence: { kind: 'disabled' } }), T0);
    expect(result).toEqual({ state, decisions: [] });
    expect(result.state).toBe(state);
  });

  it('sends nothing during a snooze', () => {
    const snoozed = settings({ silence: { kind: 'snoozed', until: T0 + HOUR } });
    expect(decide(stateWith(3), snoozed, T0 + HOUR - 1).decisions).toEqual([]);
  });

  it('reports every event of the silence as new in the first notification after it', () => {
    const first = decide(stateWith(2), settings(), T0);
    const disabled = settings({ silence: { kind: 'disabled' } });
    const during = recalculate(first.state, 3, 6, disabled, T0 + MINUTE);
    const after = recalculate(during.state, 7, 7, settings(), T0 + 2 * MINUTE);
    expect(webhookOf(after.decisions)).toMatchObject({
      previousCount: 2,
      currentCount: 7,
      eventCount: 5,
      since: T0,
    });
    expect(webhookOf(after.decisions)?.events.map((e) => e.id)).toEqual([
      'evt-3',
      'evt-4',
      'evt-5',
      'evt-6',
      'evt-7',
    ]);
  });

  it('sends at the end of a snooze without new events (timer call), reporting the events of the snooze', () => {
    const snoozed = settings({ silence: { kind: 'snoozed', until: T0 + HOUR } });
    const first = decide(stateWith(2), settings(), T0);
    const during = recalculate(first.state, 3, 4, snoozed, T0 + MINUTE);
    expect(during.decisions).toEqual([]);
    const { decisions } = decide(during.state, snoozed, T0 + HOUR);
    expect(webhookOf(decisions)).toMatchObject({
      previousCount: 2,
      currentCount: 4,
      eventCount: 2,
    });
    expect(emailOf(decisions)).toMatchObject({ previousCount: 2, currentCount: 4, eventCount: 2 });
  });
});

describe('decide — idempotence', () => {
  it.each(['immediate', 'batch', 'threshold'] as const)(
    'sends nothing the second time it is called at the same time in %s mode',
    (frequency) => {
      const config = settings({ frequency, threshold: 1 });
      const first = decide(stateWith(3), config, T0);
      expect(first.decisions.length).toBeGreaterThan(0);
      expect(decide(first.state, config, T0)).toEqual({ state: first.state, decisions: [] });
    },
  );
});

describe('decide — risk scores and sources of the new events', () => {
  const capped = settings({ maxEventsPerNotification: 2 });

  it('reports the highest risk score and the sources of all new events, not only those attached', () => {
    // Scores are n / 10: evt-5 (github) has the highest, and evt-5 is attached; the cap drops
    // evt-1..evt-3, whose source (okta) is still reported.
    const webhook = webhookOf(decide(stateWith(5), capped, T0).decisions);
    expect(webhook?.events.map((e) => e.id)).toEqual(['evt-4', 'evt-5']);
    expect(webhook).toMatchObject({ maxRiskScore: 0.5, sources: ['okta', 'github'] });
  });

  it('counts a dropped event’s score when it is the highest', () => {
    const state = applyEvents(
      undefined,
      [event(1, { riskScore: 9.8 }), event(2), event(3)],
      T0,
    ).state;
    expect(webhookOf(decide(state, capped, T0).decisions)?.maxRiskScore).toBe(9.8);
  });

  it('reports only what is new to each channel since its own last notification', () => {
    const first = decide(stateWith(4), settings({ emailEnabled: false }), T0).state;
    const { decisions } = decide(addEvents(first, 5, 6, T0), settings(), T0 + MINUTE);
    expect(webhookOf(decisions)).toMatchObject({ maxRiskScore: 0.6, sources: ['github', 'okta'] });
    // Email was off for the first four: its first notification covers all six.
    expect(emailOf(decisions)).toMatchObject({ maxRiskScore: 0.6, sources: ['okta', 'github'] });
  });

  it('carries them in digest entries too, and starts afresh after a notification', () => {
    const batch = settings({ frequency: 'batch' });
    const first = decide(stateWith(2), batch, T0);
    expect(digestOf(first.decisions)).toMatchObject({ maxRiskScore: 0.2, sources: ['okta'] });
    expect(first.state.channels.email).toMatchObject({ newMaxRiskScore: null, newSources: [] });
    const next = decide(addEvents(first.state, 3, 3, T0), batch, T0 + MINUTE);
    expect(digestOf(next.decisions)).toMatchObject({ maxRiskScore: 0.3, sources: ['okta'] });
  });

  it('keeps them through a silence, for the first notification after it', () => {
    const snoozed = settings({ silence: { kind: 'snoozed', until: T0 + HOUR } });
    const during = decide(stateWith(5), snoozed, T0);
    expect(during.decisions).toEqual([]);
    const after = decide(during.state, snoozed, T0 + HOUR);
    expect(webhookOf(after.decisions)).toMatchObject({
      maxRiskScore: 0.5,
      sources: ['okta', 'github'],
    });
  });
});
