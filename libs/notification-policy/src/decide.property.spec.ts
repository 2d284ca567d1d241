import type { NotificationChannel, NotificationDecision } from '@vigil/contracts';
import fc from 'fast-check';
import { applyEvents } from './apply-events';
import { decide } from './decide';
import type { DetectionEvent, DetectionState } from './detection-state';
import { isSilenced } from './is-silenced';
import { nextWakeUp } from './next-wake-up';
import type { NotificationSettings } from './notification-settings';
import { SNOOZE_DURATIONS, type SnoozeDuration } from './snooze-durations';
import { DETECTION_ID, HOUR, MINUTE, settings as baseSettings, T0 } from './testing/factories';

/**
 * Model-based check of the decision engine: random sequences of event batches (with repeated
 * ids), settings changes and time passing, driven the way the stream processor drives it
 * (decide after each recalculation, decide from a timer at nextWakeUp).
 */

type SilenceChoice =
  { kind: 'none' } | { kind: 'disabled' } | { kind: 'snooze'; duration: SnoozeDuration };

type Command =
  | { type: 'events'; batch: Array<{ id: number; ageMs: number }> }
  | { type: 'settings'; change: Omit<NotificationSettings, 'silence'>; silence: SilenceChoice }
  | { type: 'advance'; ms: number };

const ID_POOL = 40;

const eventsCommand = fc.record({
  type: fc.constant('events' as const),
  batch: fc.array(fc.record({ id: fc.nat(ID_POOL - 1), ageMs: fc.nat(2 * HOUR) }), {
    minLength: 1,
    maxLength: 8,
  }),
});

const settingsCommand = fc.record({
  type: fc.constant('settings' as const),
  change: fc.record({
    emailEnabled: fc.boolean(),
    recipients: fc.constantFrom<string[]>(
      [],
      ['soc@example.com'],
      ['a@example.com', 'b@example.com'],
    ),
    frequency: fc.constantFrom('batch' as const, 'immediate' as const, 'threshold' as const),
    batchWindowMinutes: fc.constantFrom(1, 15, 60, 1440),
    webhookEnabled: fc.boolean(),
    webhookProviderIds: fc.constantFrom<string[]>([], ['tines'], ['tines', 'custom']),
    maxEventsPerNotification: fc.integer({ min: 1, max: 6 }),
    threshold: fc.option(fc.nat(30), { nil: null }),
  }),
  silence: fc.oneof(
    { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'disabled' as const }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('snooze' as const),
        duration: fc.constantFrom<SnoozeDuration>('1h', '24h', '7d'),
      }),
    },
  ),
});

const advanceCommand = fc.record({
  type: fc.constant('advance' as const),
  ms: fc.oneof(fc.nat(5 * MINUTE), fc.nat(3 * HOUR), fc.nat(8 * 24 * HOUR)),
});

const commands = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: eventsCommand },
    { weight: 2, arbitrary: settingsCommand },
    { weight: 2, arbitrary: advanceCommand },
  ),
  { maxLength: 40 },
);

interface ChannelLedger {
  lastCurrent: number;
  eventCountSum: number;
}

class Simulation {
  now = T0;
  config: NotificationSettings = baseSettings({ frequency: 'batch' });
  state: DetectionState | undefined;
  /** Distinct ids in the order the engine should count them. */
  readonly arrival: string[] = [];
  readonly ledgers: Record<NotificationChannel, ChannelLedger> = {
    webhook: { lastCurrent: 0, eventCountSum: 0 },
    email: { lastCurrent: 0, eventCountSum: 0 },
  };
  readonly digestBase = new Map<string, number>();
  readonly digestLast = new Map<string, number>();
  readonly attachmentsMayBeShort = new Set<'webhook' | 'email'>();

  run(command: Command): void {
    switch (command.type) {
      case 'events':
        this.receive(command.batch);
        break;
      case 'settings': {
        const previous = this.config;
        this.config = { ...command.change, silence: this.silence(command.silence) };
        // A channel that cannot send does not hold events back, and a lower cap drops the
        // oldest: the next notification of such a channel may attach fewer of them.
        for (const channel of ['webhook', 'email'] as const) {
          if (
            !canSend(this.config, channel) ||
            this.config.maxEventsPerNotification < previous.maxEventsPerNotification
          ) {
            this.attachmentsMayBeShort.add(channel);
          }
        }
        break;
      }
      case 'advance':
        this.advance(command.ms);
        break;
    }
    this.timers(this.now);
    this.checkNothingPending();
  }

  private silence(choice: SilenceChoice): NotificationSettings['silence'] {
    if (choice.kind === 'snooze')
      return { kind: 'snoozed', until: this.now + SNOOZE_DURATIONS[choice.duration] };
    return choice;
  }

  private receive(batch: Array<{ id: number; ageMs: number }>): void {
    const events: DetectionEvent[] = batch.map(({ id, ageMs }) => ({
      id: `e${id}`,
      detectionId: DETECTION_ID,
      detectionName: 'Property detection',
      personName: `P${id % 7}`,
      personEmail: `p${id % 7}@example.com`,
      description: `event ${id}`,
      timestamp: this.now - ageMs,
      riskScore: id % 11,
      source: `source-${id % 4}`,
    }));
    const known = new Set(this.arrival);
    const ordered = [...events].sort(
      (a, b) => a.timestamp - b.timestamp || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    let expectedAdded = 0;
    for (const event of ordered) {
      if (known.has(event.id)) continue;
      known.add(event.id);
      this.arrival.push(event.id);
      expectedAdded++;
    }
    const { state, added } = applyEvents(this.state, events, this.now);
    this.state = state;
    // (d) the count is the number of distinct ids (the pool is smaller than the dedup window)
    expect(added).toBe(expectedAdded);
    expect(state.count).toBe(this.arrival.length);
    expect(state.count).toBe(new Set(this.arrival).size);
    this.decideAt(this.now);
  }

  /** Moves the clock, firing every timer that falls due on the way. */
  private advance(ms: number): void {
    const target = this.now + ms;
    this.timers(target);
    this.now = target;
  }

  private timers(until: number): void {
    for (let guard = 0; this.state && guard < 5; guard++) {
      const wake = nextWakeUp(this.state, this.config, this.now);
      if (wake === null || wake > until) return;
      expect(wake).toBeGreaterThanOrEqual(this.now);
      this.now = wake;
      expect(this.decideAt(this.now).length).toBeGreaterThan(0);
    }
  }

  private decideAt(now: number): NotificationDecision[] {
    if (!this.state) return [];
    const before = this.state;
    const { state, decisions } = decide(before, this.config, now);
    // (c) nothing while silenced, and then the state is untouched
    if (isSilenced(this.config, now)) {
      expect(decisions).toEqual([]);
      expect(state).toBe(before);
    }
    for (const decision of decisions) this.check(decision, before);
    // (f) bounded: no more buffered events than a notification can attach
    if (!isSilenced(this.config, now)) {
      expect(state.pendingEvents.length).toBeLessThanOrEqual(this.config.maxEventsPerNotification);
    }
    this.state = state;
    // (e) idempotent: a second call at the same time sends nothing and changes nothing
    const again = decide(state, this.config, now);
    expect(again.decisions).toEqual([]);
    expect(again.state).toEqual(state);
    return decisions;
  }

  private check(decision: NotificationDecision, before: DetectionState): void {
    const channel = before.channels[decision.channel];
    const ledger = this.ledgers[decision.channel];
    // (a) a decision only when that channel's count rose
    expect(decision.currentCount).toBeGreaterThan(decision.previousCount);
    expect(decision.previousCount).toBe(channel.lastNotifiedCount);
    // (b) previous_count continues the channel's chain; (c) it reports everything up to now
    expect(decision.previousCount).toBe(ledger.lastCurrent);
    expect(decision.currentCount).toBe(before.count);
    expect(decision.eventCount).toBe(decision.currentCount - decision.previousCount);
    ledger.lastCurrent = decision.currentCount;
    ledger.eventCountSum += decision.eventCount;

    if (this.config.frequency === 'threshold') {
      expect(decision.currentCount).toBeGreaterThan(this.config.threshold ?? 0);
    }
    expect(decision.userCount).toBe(before.userCount);
    expect(decision.affectedUsers.length).toBe(
      Math.min(before.userCount, this.config.maxEventsPerNotification),
    );

    if (decision.kind === 'digest-entry') {
      expect(this.config.frequency).toBe('batch');
      const base = this.digestBase.get(decision.entryKey) ?? decision.previousCount;
      this.digestBase.set(decision.entryKey, base);
      expect(decision.windowNewCount).toBe(decision.currentCount - base);
      expect(decision.windowStart).toBeLessThanOrEqual(decision.decidedAt);
      expect(decision.windowEnd).toBeGreaterThan(decision.decidedAt);
      expect(decision.windowNewCount).toBeGreaterThan(this.digestLast.get(decision.entryKey) ?? 0);
      this.digestLast.set(decision.entryKey, decision.windowNewCount);
      return;
    }
    if (decision.kind === 'email') expect(this.config.frequency).not.toBe('batch');
    // The newest new events (by arrival), chronological, and an exact truncated count.
    const fresh = this.arrival.slice(decision.previousCount, decision.currentCount);
    const expected = fresh.slice(Math.max(0, fresh.length - this.config.maxEventsPerNotification));
    const attached = decision.events.map((e) => e.id);
    if (this.attachmentsMayBeShort.delete(decision.channel)) {
      // The newest of them, whatever is left of them.
      expect(expected).toEqual(expect.arrayContaining(attached));
      expect(attached.sort()).toEqual(expected.slice(expected.length - attached.length).sort());
    } else {
      expect(attached.sort()).toEqual([...expected].sort());
    }
    expect(decision.truncatedCount).toBe(decision.eventCount - decision.events.length);
    const times = decision.events.map((e) => e.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  }

  /** Liveness: once not silenced, nothing sendable is left waiting (the timer or decide sent it). */
  private checkNothingPending(): void {
    if (!this.state || isSilenced(this.config, this.now)) return;
    expect(decide(this.state, this.config, this.now).decisions).toEqual([]);
  }

  finish(): void {
    if (!this.state) return;
    // (b) the event counts of each channel's decisions add up to its last notified count
    for (const channel of ['webhook', 'email'] as const) {
      expect(this.ledgers[channel].eventCountSum).toBe(
        this.state.channels[channel].lastNotifiedCount,
      );
      expect(this.ledgers[channel].lastCurrent).toBe(
        this.state.channels[channel].lastNotifiedCount,
      );
    }
  }
}

describe('decide — properties over random histories', () => {
  it('keeps every channel consistent: rises only, exact chains, nothing lost, idempotent', () => {
    fc.assert(
      fc.property(commands, (history) => {
        const simulation = new Simulation();
        for (const command of history) simulation.run(command);
        simulation.finish();
      }),
      { numRuns: 300 },
    );
  });

  it('reports every event of a silence in the first notification after it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(ID_POOL - 1), { minLength: 1, maxLength: 30 }),
        fc.constantFrom<SnoozeDuration | 'disabled'>('1h', '24h', '7d', 'disabled'),
        (ids, silence) => {
          const simulation = new Simulation();
          simulation.run({
            type: 'settings',
            change: { ...baseSettings({ frequency: 'immediate' }) },
            silence: { kind: 'none' },
          });
          simulation.run({ type: 'events', batch: [{ id: ids[0], ageMs: 0 }] });
          const notifiedBefore = simulation.state!.channels.webhook.lastNotifiedCount;
          simulation.run({
            type: 'settings',
            change: { ...baseSettings({ frequency: 'immediate' }) },
            silence:
              silence === 'disabled' ? { kind: 'disabled' } : { kind: 'snooze', duration: silence },
          });
          for (const id of ids) simulation.run({ type: 'events', batch: [{ id, ageMs: 0 }] });
          expect(simulation.state!.channels.webhook.lastNotifiedCount).toBe(notifiedBefore);
          if (silence === 'disabled') {
            simulation.run({
              type: 'settings',
              change: { ...baseSettings({ frequency: 'immediate' }) },
              silence: { kind: 'none' },
            });
          } else {
            simulation.run({ type: 'advance', ms: SNOOZE_DURATIONS[silence] });
          }
          expect(simulation.state!.channels.webhook.lastNotifiedCount).toBe(new Set(ids).size);
          expect(simulation.state!.channels.email.lastNotifiedCount).toBe(new Set(ids).size);
          simulation.finish();
        },
      ),
      { numRuns: 100 },
    );
  });
});

function canSend(config: NotificationSettings, channel: 'webhook' | 'email'): boolean {
  return channel === 'webhook'
    ? config.webhookEnabled && config.webhookProviderIds.length > 0
    : config.emailEnabled && config.recipients.length > 0;
}
