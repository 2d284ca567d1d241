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
 * Version 2: the webhook and email decisions of one recalculation usually attach the same
 * events (up to Max events per notification, 5,000 by default) and the same affected users.
 * Each is written once and the decisions refer to them by position, which roughly halves what
 * the processor writes and the notifier reads for a detection that notifies both channels.
 */
interface SharedDecisionsRecord {
  version: 2;
  emittedAt: number;
  events: EventSummary[];
  users: AffectedUser[];
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

/**
 * One record for the decisions of one recalculation of one detection (version 2). Events are
 * shared by id and users by email: within a detection, both identify what they describe.
 */
export function encodeDetectionCommands(
  decisions: readonly NotificationDecision[],
  emittedAt: number,
): Buffer {
  const events: EventSummary[] = [];
  const users: AffectedUser[] = [];
  const eventAt = new Map<string, number>();
  const userAt = new Map<string, number>();
  const shared = decisions.map((decision): SharedDecision => {
    const affectedUsers = decision.affectedUsers.map((user) => {
      let at = userAt.get(user.email);
      if (at === undefined) {
        at = users.push(user) - 1;
        userAt.set(user.email, at);
      }
      return at;
    });
    if (!('events' in decision)) return { ...decision, affectedUsers };
    const refs = decision.events.map((event) => {
      let at = eventAt.get(event.id);
      if (at === undefined) {
        at = events.push(event) - 1;
        eventAt.set(event.id, at);
      }
      return at;
    });
    return { ...decision, affectedUsers, events: refs };
  });
  const record: SharedDecisionsRecord = { version: 2, emittedAt, events, users, decisions: shared };
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
  const { emittedAt, events, users, decisions } = record;
  if (
    typeof emittedAt !== 'number' ||
    !Array.isArray(events) ||
    !Array.isArray(users) ||
    !Array.isArray(decisions) ||
    decisions.length === 0
  ) {
    return null;
  }
  const commands: NotificationCommand[] = [];
  for (const shared of decisions as unknown[]) {
    if (!isDecision(shared)) return null;
    const { affectedUsers, events: eventRefs } = shared as Partial<SharedDecision>;
    const sharedUsers = resolve(affectedUsers, users);
    if (!sharedUsers || typeof shared.notificationId !== 'string') return null;
    const decision: Record<string, unknown> = { ...shared, affectedUsers: sharedUsers };
    if (eventRefs !== undefined) {
      const sharedEvents = resolve(eventRefs, events);
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

/** Copies of the listed entries; null when a position is not one of the list's. */
function resolve<T extends object>(refs: unknown, list: readonly T[]): T[] | null {
  if (!Array.isArray(refs)) return null;
  const resolved: T[] = [];
  for (const ref of refs as unknown[]) {
    if (typeof ref !== 'number' || !Number.isInteger(ref) || ref < 0 || ref >= list.length) {
      return null;
    }
    const entry = list[ref];
    if (typeof entry !== 'object' || entry === null) return null;
    resolved.push({ ...entry });
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
