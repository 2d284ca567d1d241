import type {
  AffectedUser,
  EventSummary,
  InvestigationDecision,
  NotificationDecision,
} from '@vigil/notification-policy';

/**
 * What the stream processor asks the notifier to deliver: one command per decision. The id is
 * the decision's deterministic notification id, so a replayed command is recognisably the same.
 *
 * On `notifications.commands.v1` (JSON, keyed by detection id or investigation id) a record
 * holds either one command (version 1) or all the decisions of one recalculation of one
 * detection (version 2, see encodeDetectionCommands). Readers accept both.
 */
export interface NotificationCommand {
  version: 1;
  id: string;
  emittedAt: number;
  decision: NotificationDecision | InvestigationDecision;
}

/**
 * Version 2: the decisions of one recalculation of one detection. The webhook and email
 * decisions usually attach the same events (up to Max events per notification, 5,000 by
 * default) and the same affected users, and a detection's events mostly repeat a few people
 * and descriptions. So each event, user, person and description is written once, as a tuple or
 * a string in a list, and referred to by position: a record is about a third of the size of
 * the version 1 commands it replaces.
 */
interface SharedDecisionsRecord {
  version: 2;
  emittedAt: number;
  /** [name, email] of the people events name. */
  people: [string, string][];
  descriptions: string[];
  /** [id, position in people, position in descriptions, timestamp]. */
  events: [string, number, number, number][];
  /** [email, name] of the affected users. */
  users: [string, string][];
  decisions: SharedDecision[];
}

/** A decision whose `events` and `affectedUsers` are positions in the record's lists. */
type SharedDecision = Record<string, unknown> & {
  kind: string;
  notificationId: string;
  affectedUsers: number[];
  events?: number[];
};

export function encodeNotificationCommand(command: NotificationCommand): Buffer {
  return Buffer.from(JSON.stringify(command), 'utf8');
}

/** Positions of distinct values in a list, by a key of each. */
class Pool<T> {
  readonly items: T[] = [];
  private readonly at = new Map<string, number>();

  positionOf(key: string, make: () => T): number {
    let position = this.at.get(key);
    if (position === undefined) {
      position = this.items.push(make()) - 1;
      this.at.set(key, position);
    }
    return position;
  }
}

/**
 * One record for the decisions of one recalculation of one detection (version 2). Events are
 * shared by id and users by email: within a detection, both identify what they describe.
 */
export function encodeDetectionCommands(
  decisions: readonly NotificationDecision[],
  emittedAt: number,
): Buffer {
  const people = new Pool<[string, string]>();
  const descriptions = new Pool<string>();
  const events = new Pool<[string, number, number, number]>();
  const users = new Pool<[string, string]>();
  const toEvent = (event: EventSummary): [string, number, number, number] => [
    event.id,
    people.positionOf(`${event.personEmail}\u0000${event.personName}`, () => [
      event.personName,
      event.personEmail,
    ]),
    descriptions.positionOf(event.description, () => event.description),
    event.timestamp,
  ];
  const shared = decisions.map((decision): SharedDecision => {
    const affectedUsers = decision.affectedUsers.map((user) =>
      users.positionOf(user.email, () => [user.email, user.name]),
    );
    if (!('events' in decision)) return { ...decision, affectedUsers };
    const refs = decision.events.map((event) => events.positionOf(event.id, () => toEvent(event)));
    return { ...decision, affectedUsers, events: refs };
  });
  const record: SharedDecisionsRecord = {
    version: 2,
    emittedAt,
    people: people.items,
    descriptions: descriptions.items,
    events: events.items,
    users: users.items,
    decisions: shared,
  };
  return Buffer.from(JSON.stringify(record), 'utf8');
}

/**
 * The commands a record holds, or null for bytes that are not a record of a version this code
 * understands (the caller dead-letters them).
 */
export function decodeNotificationCommands(bytes: Buffer | null): NotificationCommand[] | null {
  if (!bytes) return null;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const version = (value as { version?: unknown }).version;
  if (version === 1) {
    const command = value as Partial<NotificationCommand>;
    return typeof command.id === 'string' &&
      typeof command.emittedAt === 'number' &&
      isDecision(command.decision)
      ? [command as NotificationCommand]
      : null;
  }
  if (version === 2) return expandShared(value);
  return null;
}

function expandShared(record: Partial<SharedDecisionsRecord>): NotificationCommand[] | null {
  const { emittedAt, decisions } = record;
  const people = tuples<[string, string]>(record.people, (p) => isString(p[0]) && isString(p[1]));
  const descriptions = Array.isArray(record.descriptions) ? record.descriptions : null;
  const users = tuples<[string, string]>(record.users, (u) => isString(u[0]) && isString(u[1]));
  if (
    typeof emittedAt !== 'number' ||
    !people ||
    !descriptions?.every(isString) ||
    !users ||
    !Array.isArray(decisions) ||
    decisions.length === 0
  ) {
    return null;
  }
  const events = tuples<[string, number, number, number]>(
    record.events,
    ([id, person, description, timestamp]) =>
      isString(id) &&
      isPosition(person, people.length) &&
      isPosition(description, descriptions.length) &&
      typeof timestamp === 'number',
  );
  if (!events) return null;
  const eventAt = (ref: number): EventSummary => {
    const [id, person, description, timestamp] = events[ref];
    const [personName, personEmail] = people[person];
    return { id, personName, personEmail, description: descriptions[description], timestamp };
  };
  const userAt = (ref: number): AffectedUser => {
    const [email, name] = users[ref];
    return { email, name };
  };
  const commands: NotificationCommand[] = [];
  for (const shared of decisions as unknown[]) {
    if (!isDecision(shared) || typeof shared.notificationId !== 'string') return null;
    const { affectedUsers, events: eventRefs } = shared as Partial<SharedDecision>;
    const sharedUsers = resolve(affectedUsers, users.length, userAt);
    if (!sharedUsers) return null;
    const decision: Record<string, unknown> = { ...shared, affectedUsers: sharedUsers };
    if (eventRefs !== undefined) {
      const sharedEvents = resolve(eventRefs, events.length, eventAt);
      if (!sharedEvents) return null;
      decision.events = sharedEvents;
    }
    commands.push({
      version: 1,
      id: shared.notificationId,
      emittedAt,
      decision: decision as unknown as NotificationDecision,
    });
  }
  return commands;
}

const isString = (value: unknown): value is string => typeof value === 'string';

const isPosition = (value: unknown, length: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < length;

/** The list when it is an array of arrays that each pass `valid`, else null. */
function tuples<T extends unknown[]>(
  list: unknown,
  valid: (tuple: unknown[]) => boolean,
): T[] | null {
  if (!Array.isArray(list)) return null;
  for (const tuple of list as unknown[]) if (!Array.isArray(tuple) || !valid(tuple)) return null;
  return list as T[];
}

/** A new entry for each listed position; null when a position is not one of the list's. */
function resolve<T>(refs: unknown, length: number, entryAt: (position: number) => T): T[] | null {
  if (!Array.isArray(refs)) return null;
  const resolved: T[] = [];
  for (const ref of refs as unknown[]) {
    if (!isPosition(ref, length)) return null;
    resolved.push(entryAt(ref));
  }
  return resolved;
}

function isDecision(value: unknown): value is { kind: string; notificationId?: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === 'string'
  );
}
