import fc from 'fast-check';
import type {
  AffectedUser,
  DigestEntryDecision,
  EmailDecision,
  EventSummary,
  NotificationDecision,
  WebhookDecision,
} from '@vigil/notification-policy';
import {
  decodeNotificationCommands,
  encodeDetectionCommands,
  encodeNotificationCommand,
  type NotificationCommand,
} from './notification-command';

const event = (n: number, email = `user${n % 3}@example.com`): EventSummary => ({
  id: `evt-${n}`,
  personName: `User ${n % 3}`,
  personEmail: email,
  description: `impossible travel ${n}`,
  timestamp: 1_700_000_000_000 + n,
});
const user = (n: number): AffectedUser => ({ email: `user${n}@example.com`, name: `User ${n}` });

function update(channel: 'webhook' | 'email', count: number, previous: number) {
  return {
    notificationId: `${channel}-${count}`,
    detectionId: 'det-1',
    detectionName: 'Impossible travel',
    previousCount: previous,
    currentCount: count,
    since: 1_700_000_000_000,
    eventCount: count - previous,
    userCount: 3,
    affectedUsers: [user(0), user(1), user(2)],
    decidedAt: 1_700_000_100_000,
  };
}

const webhook = (events: EventSummary[], previous = 0): WebhookDecision => ({
  kind: 'webhook',
  channel: 'webhook',
  ...update('webhook', 10, previous),
  events,
  truncatedCount: 10 - previous - events.length,
  providerIds: ['p-1', 'p-2'],
});
const email = (events: EventSummary[], previous = 0): EmailDecision => ({
  kind: 'email',
  channel: 'email',
  ...update('email', 10, previous),
  events,
  truncatedCount: 10 - previous - events.length,
  recipients: ['soc@example.com'],
});
const digestEntry = (): DigestEntryDecision => ({
  kind: 'digest-entry',
  channel: 'email',
  ...update('email', 10, 4),
  recipients: ['soc@example.com'],
  windowStart: 1_700_000_000_000,
  windowEnd: 1_700_003_600_000,
  entryKey: 'det-1:1700000000000',
  windowNewCount: 6,
  windowBaseCount: 4,
  windowSince: 1_700_000_000_000,
});

/** What each decision means for the notifier: the commands of version 1. */
const asCommands = (decisions: NotificationDecision[], emittedAt: number): NotificationCommand[] =>
  decisions.map((decision) => ({ version: 1, id: decision.notificationId, emittedAt, decision }));

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

const decisionRefs = (affectedUsers: number[], events: number[]) => ({
  kind: 'webhook',
  notificationId: 'n',
  affectedUsers,
  events,
});

/** A version 2 record: one person, one description, no events, users or decisions unless given. */
const shared = (parts: Record<string, unknown>) =>
  json({
    version: 2,
    emittedAt: 1,
    people: [['Ada', 'ada@example.com']],
    descriptions: ['travel'],
    events: [],
    users: [],
    decisions: [decisionRefs([], [])],
    ...parts,
  });

describe('notification command records', () => {
  it('reads a version 1 record as its one command', () => {
    const command: NotificationCommand = {
      version: 1,
      id: 'webhook-10',
      emittedAt: 5,
      decision: webhook([event(1)]),
    };
    expect(decodeNotificationCommands(encodeNotificationCommand(command))).toEqual([command]);
  });

  it('writes the events and users that the decisions of a recalculation share once', () => {
    const events = [1, 2, 3, 4, 5].map((n) => event(n));
    const bytes = encodeDetectionCommands([webhook(events), email(events.slice(2), 2)], 7);
    const record = JSON.parse(bytes.toString()) as { events: unknown[]; users: unknown[] };
    expect(record.events).toHaveLength(5);
    expect(record.users).toHaveLength(3);
    expect(decodeNotificationCommands(bytes)).toEqual(
      asCommands([webhook(events), email(events.slice(2), 2)], 7),
    );
  });

  it('is about a third of the size of the version 1 commands it stands for', () => {
    const events = Array.from({ length: 50 }, (_, n) => event(n));
    const decisions = [webhook(events), email(events)];
    const one = asCommands(decisions, 7).reduce(
      (bytes, command) => bytes + encodeNotificationCommand(command).length,
      0,
    );
    expect(encodeDetectionCommands(decisions, 7).length).toBeLessThan(one * 0.4);
  });

  it('keeps a digest entry, which attaches no events, as it is', () => {
    const decisions = [webhook([event(1)]), digestEntry()];
    const [, entry] = decodeNotificationCommands(encodeDetectionCommands(decisions, 3))!;
    expect(entry.decision).toEqual(digestEntry());
    expect('events' in entry.decision).toBe(false);
  });

  it('gives every command its own copies of shared events', () => {
    const events = [event(1)];
    const [first, second] = decodeNotificationCommands(
      encodeDetectionCommands([webhook(events), email(events)], 1),
    ) as [NotificationCommand & { decision: WebhookDecision }, NotificationCommand];
    first.decision.events[0].description = 'changed';
    expect((second.decision as EmailDecision).events[0].description).toBe('impossible travel 1');
  });

  it('decodes to exactly the commands of the decisions, whatever they attach', () => {
    // An id always stands for the same event (as within a detection); names and emails vary
    // apart, so a person is the pair, not either alone.
    const summaries = fc
      .array(fc.nat({ max: 40 }), { maxLength: 25 })
      .map((ns) =>
        [...new Set(ns)].map((n) => event(n, `user${Math.floor(n / 3) % 4}@example.com`)),
      );
    const decision = fc.oneof(
      fc
        .tuple(summaries, fc.nat({ max: 5 }))
        .map(([e, p]) => webhook(e, p) as NotificationDecision),
      fc.tuple(summaries, fc.nat({ max: 5 })).map(([e, p]) => email(e, p) as NotificationDecision),
      fc.constant(digestEntry() as NotificationDecision),
    );
    fc.assert(
      fc.property(fc.array(decision, { minLength: 1, maxLength: 3 }), fc.nat(), (decisions, at) => {
        const bytes = encodeDetectionCommands(decisions, at);
        expect(decodeNotificationCommands(bytes)).toEqual(asCommands(decisions, at));
        const record = JSON.parse(bytes.toString()) as { events: [string][] };
        expect(new Set(record.events.map(([id]) => id)).size).toBe(record.events.length);
      }),
    );
  });

  it('reads the well-formed record the refusals below each break in one place', () => {
    expect(decodeNotificationCommands(shared({}))).toHaveLength(1);
  });

  it.each([
    ['not JSON', Buffer.from('{')],
    ['null', null],
    ['an unknown version', json({ version: 3, emittedAt: 1, decisions: [] })],
    ['a version 1 record without a decision', json({ version: 1, id: 'x', emittedAt: 1 })],
    ['a version 2 record without decisions', shared({ decisions: [] })],
    [
      'an event position out of range',
      shared({ events: [['evt-1', 0, 0, 1]], decisions: [decisionRefs([], [1])] }),
    ],
    [
      'a user position that is not an integer',
      shared({ users: [['a@example.com', 'A']], decisions: [decisionRefs([0.5], [])] }),
    ],
    ['an event naming a person not listed', shared({ events: [['evt-1', 1, 0, 1]] })],
    ['an event that is not a tuple', shared({ events: [event(1)] })],
    ['a user that is not a tuple', shared({ users: [user(1)] })],
    [
      'a decision without a notification id',
      shared({ decisions: [{ kind: 'webhook', affectedUsers: [], events: [] }] }),
    ],
  ])('refuses %s', (_what, bytes) => {
    expect(decodeNotificationCommands(bytes)).toBeNull();
  });
});
