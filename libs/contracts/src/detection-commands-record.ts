import type { AttachedEvents, EventSummary, NotificationDecision } from './notification-decision';

/**
 * Version 2 of a `notifications.commands.v1` record: the decisions of one recalculation of one
 * detection. The webhook and email decisions usually attach the same events (up to Max events
 * per notification, 5,000 by default) and the same affected users, and a detection's events
 * mostly repeat a few people and descriptions. So each event, user, person and description is
 * written once, as a tuple or a string in a list, and referred to by position: a record is
 * about a third of the size of the version 1 commands it replaces.
 */
export interface DetectionCommandsRecord {
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
export type SharedDecision<D extends NotificationDecision = NotificationDecision> =
  D extends AttachedEvents
    ? Omit<D, 'affectedUsers' | 'events'> & { affectedUsers: number[]; events: number[] }
    : Omit<D, 'affectedUsers'> & { affectedUsers: number[] };

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
  const record: DetectionCommandsRecord = {
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
