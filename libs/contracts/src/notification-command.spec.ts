import fc from 'fast-check';
import type {
  AffectedUser,
  DigestEntryDecision,
  EmailDecision,
  EventSummary,
  NotificationDecision,
  WebhookDecision,
} from './notification-decision';
import { decodeNotificationCommands } from './decode-notification-commands';
import { encodeDetectionCommands } from './detection-commands-record';
import type { InvestigationWebhookDecision } from './investigation-decision';
import { encodeNotificationCommand, type NotificationCommand } from './notification-command';

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
    maxRiskScore: 7.5,
    sources: ['okta', 'github'],
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

const NOT_A_RECORD = 'Not a notification command record of version 1 or 2 (JSON)';

/** A webhook decision of a version 2 record: its users and events are positions. */
const decisionRefs = (affectedUsers: number[], events: number[]) => ({
  ...webhook([]),
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
    const [, entry] = decodeNotificationCommands(
      encodeDetectionCommands(decisions, 3),
    ) as NotificationCommand[];
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

  it('reads records written before decisions carried risk scores and sources as not known', () => {
    const { maxRiskScore: _m, sources: _s, ...older } = webhook([event(1)]);
    const known = { ...webhook([event(1)]), maxRiskScore: null, sources: [] };
    const one = json({ version: 1, id: 'webhook-10', emittedAt: 5, decision: older });
    expect(decodeNotificationCommands(one)).toEqual([
      { version: 1, id: 'webhook-10', emittedAt: 5, decision: known },
    ]);
    const withoutThem = (bytes: Buffer) => {
      const record = JSON.parse(bytes.toString()) as { decisions: Record<string, unknown>[] };
      for (const decision of record.decisions) {
        delete decision.maxRiskScore;
        delete decision.sources;
      }
      return json(record);
    };
    const two = withoutThem(encodeDetectionCommands([webhook([event(1)]), digestEntry()], 5));
    expect(
      (decodeNotificationCommands(two) as NotificationCommand[]).map((c) => c.decision),
    ).toEqual([known, { ...digestEntry(), maxRiskScore: null, sources: [] }]);
  });

  it('carries the risk score and sources of every decision of a recalculation', () => {
    const decisions = [
      webhook([event(1)]),
      { ...email([event(1)]), maxRiskScore: null, sources: [] },
      { ...digestEntry(), maxRiskScore: 3, sources: ['aws'] },
    ];
    const decoded = decodeNotificationCommands(encodeDetectionCommands(decisions, 5));
    expect((decoded as NotificationCommand[]).map((c) => c.decision)).toEqual(decisions);
  });

  it('reads the well-formed record the refusals below each break in one place', () => {
    expect(decodeNotificationCommands(shared({}))).toHaveLength(1);
  });

  const { notificationId: _id, ...withoutNotificationId } = decisionRefs([], []);
  it.each([
    ['not JSON', Buffer.from('{'), NOT_A_RECORD],
    ['null', null, NOT_A_RECORD],
    ['an unknown version', json({ version: 3, emittedAt: 1, decisions: [] }), NOT_A_RECORD],
    [
      'a version 1 record without a decision',
      json({ version: 1, id: 'x', emittedAt: 1 }),
      'decision: Invalid input: expected object, received undefined',
    ],
    ['a version 2 record without decisions', shared({ decisions: [] }), 'decisions: Too small'],
    [
      'an event position out of range',
      shared({ events: [['evt-1', 0, 0, 1]], decisions: [decisionRefs([], [1])] }),
      'decisions[0].events[0]: 1 is not a position in events (1)',
    ],
    [
      'a user position that is not an integer',
      shared({ users: [['a@example.com', 'A']], decisions: [decisionRefs([0.5], [])] }),
      'decisions[0].affectedUsers[0]: 0.5 is not a position in users (1)',
    ],
    [
      'an event naming a person not listed',
      shared({ events: [['evt-1', 1, 0, 1]] }),
      'events[0][1]: 1 is not a position in people (1)',
    ],
    [
      'an event that is not a tuple',
      shared({ events: [event(1)] }),
      'events[0]: Invalid input: expected [id, person position, description position, epoch millis]',
    ],
    [
      'a user that is not a tuple',
      shared({ users: [user(1)] }),
      'users[0]: Invalid input: expected [string, string]',
    ],
    [
      'a decision without a notification id',
      shared({ decisions: [withoutNotificationId] }),
      'decisions[0].notificationId: Invalid input: expected string, received undefined',
    ],
  ])('refuses %s, saying where', (_what, bytes, reason) => {
    expect(decodeNotificationCommands(bytes)).toEqual(expect.stringContaining(reason));
  });
});

const investigationWebhook = (): InvestigationWebhookDecision => ({
  kind: 'investigation-webhook',
  channel: 'webhook',
  notificationId: 'inv-webhook-1',
  investigationId: 'inv-1',
  status: 'completed',
  outcome: 'confirmed_risk',
  headline: 'Credential sharing',
  personName: 'Ada Lovelace',
  personEmail: 'ada@example.com',
  detectionId: 'det-1',
  detectionName: 'Password sharing',
  riskScore: 8.5,
  fingerprint: 'f1',
  decidedAt: 1_700_000_100_000,
  providerIds: ['p-1'],
});

/** The reason a version 1 command with this decision is refused (or its commands when it is not). */
const refusalOf = (decision: Record<string, unknown>) =>
  decodeNotificationCommands(json({ version: 1, id: 'c-1', emittedAt: 1, decision }));

describe('notification command schema', () => {
  it('reads every kind of decision as it was written', () => {
    for (const decision of [
      webhook([event(1)]),
      email([]),
      digestEntry(),
      investigationWebhook(),
    ]) {
      const command = { version: 1 as const, id: 'c-1', emittedAt: 1, decision };
      expect(decodeNotificationCommands(encodeNotificationCommand(command))).toEqual([command]);
    }
  });

  it('leaves out a field it does not know, so a newer writer is not refused', () => {
    const [command] = refusalOf({ ...webhook([]), priority: 'high' }) as NotificationCommand[];
    expect(command.decision).toEqual(webhook([]));
  });

  it.each([
    ['an unknown kind', { ...webhook([]), kind: 'fax' }, 'Unknown decision kind "fax"'],
    ['no kind', { ...webhook([]), kind: undefined }, 'decision.kind: Invalid discriminator value'],
    [
      'recipients that are not a list',
      { ...email([]), recipients: 'soc@example.com' },
      'decision.recipients: Invalid input: expected array, received string',
    ],
    [
      'a recipient that is not a string',
      { ...email([]), recipients: ['soc@example.com', 7] },
      'decision.recipients[1]: Invalid input: expected string, received number',
    ],
    [
      'a provider id that is not a string',
      { ...webhook([]), providerIds: [null] },
      'decision.providerIds[0]: Invalid input: expected string, received null',
    ],
    [
      'an empty notification id',
      { ...webhook([]), notificationId: '' },
      'decision.notificationId: Too small',
    ],
    ['an empty detection id', { ...email([]), detectionId: '' }, 'decision.detectionId: Too small'],
    [
      'an empty investigation id',
      { ...investigationWebhook(), investigationId: '' },
      'decision.investigationId: Too small',
    ],
    [
      'an empty digest entry key',
      { ...digestEntry(), entryKey: '' },
      'decision.entryKey: Too small',
    ],
    [
      'a channel that is not its kind’s',
      { ...webhook([]), channel: 'email' },
      'decision.channel: Invalid input: expected "webhook"',
    ],
    [
      'a count that is not a number',
      { ...webhook([]), currentCount: '10' },
      'decision.currentCount: Invalid input: expected number, received string',
    ],
    [
      'a count that is not an integer',
      { ...digestEntry(), windowNewCount: 1.5 },
      'decision.windowNewCount: Invalid input: expected int, received number',
    ],
    [
      'a missing field',
      { ...webhook([]), detectionName: undefined },
      'decision.detectionName: Invalid input: expected string, received undefined',
    ],
    [
      'an event time no date can hold',
      { ...webhook([{ ...event(1), timestamp: 1e20 }]) },
      'decision.events[0].timestamp: Too big',
    ],
    [
      'an affected user without an email',
      { ...webhook([]), affectedUsers: [{ name: 'Ada' }] },
      'decision.affectedUsers[0].email: Invalid input: expected string, received undefined',
    ],
    [
      'a risk score that is not a number',
      { ...investigationWebhook(), riskScore: 'high' },
      'decision.riskScore: Invalid input: expected number, received string',
    ],
    [
      'a highest risk score that is not a number',
      { ...webhook([]), maxRiskScore: 'high' },
      'decision.maxRiskScore: Invalid input: expected number, received string',
    ],
    [
      'sources that are not strings',
      { ...digestEntry(), sources: [1] },
      'decision.sources[0]: Invalid input: expected string, received number',
    ],
  ])('refuses a decision with %s, naming the field', (_what, decision, reason) => {
    expect(refusalOf(decision)).toEqual(expect.stringContaining(reason));
  });

  it('names the first problems of a record and counts the others', () => {
    const reason = refusalOf({ kind: 'webhook' });
    expect(reason).toEqual(
      expect.stringMatching(/^decision\.channel: .+; .+; .+ \(and \d+ more\)$/),
    );
  });

  it('refuses a command whose envelope is broken, naming the field', () => {
    const bytes = json({ version: 1, id: 'c-1', emittedAt: 'now', decision: webhook([]) });
    expect(decodeNotificationCommands(bytes)).toBe(
      'emittedAt: Invalid input: expected number, received string',
    );
  });

  it('refuses a recalculation naming an unknown kind or description, saying which', () => {
    expect(
      decodeNotificationCommands(shared({ decisions: [{ ...decisionRefs([], []), kind: 'fax' }] })),
    ).toBe('Unknown decision kind "fax"');
    expect(decodeNotificationCommands(shared({ events: [['evt-1', 0, 3, 1]] }))).toBe(
      'events[0][2]: 3 is not a position in descriptions (1)',
    );
  });
});
