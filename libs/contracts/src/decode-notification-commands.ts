import type { z } from 'zod';
import type { NotificationCommand } from './notification-command';
import {
  detectionCommandsRecordSchema,
  notificationCommandSchema,
} from './notification-command-schema';
import type { AffectedUser, EventSummary, NotificationDecision } from './notification-decision';

const NOT_A_RECORD = 'Not a notification command record of version 1 or 2 (JSON)';
/** Enough issues to fix a record by; the DLQ header is cut at 2,000 characters anyway. */
const REASONS_SHOWN = 3;

/**
 * The commands a record holds, each validated against its schema, or the reason the record is
 * refused (the caller dead-letters it with that reason): the path of each problem and what is
 * wrong there.
 */
export function decodeNotificationCommands(bytes: Buffer | null): NotificationCommand[] | string {
  if (!bytes) return NOT_A_RECORD;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return NOT_A_RECORD;
  }
  if (typeof value !== 'object' || value === null) return NOT_A_RECORD;
  const version = (value as { version?: unknown }).version;
  if (version === 1) {
    const command = notificationCommandSchema.safeParse(value);
    return command.success ? [command.data] : reasonOf(command.error.issues, value);
  }
  if (version === 2) {
    const record = detectionCommandsRecordSchema.safeParse(value);
    return record.success ? expandShared(record.data) : reasonOf(record.error.issues, value);
  }
  return NOT_A_RECORD;
}

type SharedRecord = z.output<typeof detectionCommandsRecordSchema>;

/** The version 1 commands of a version 2 record, or why one of its positions is out of range. */
function expandShared(record: SharedRecord): NotificationCommand[] | string {
  const { people, descriptions, events, users, decisions, emittedAt } = record;
  const problems: string[] = [];
  const check = (path: string, ref: number, list: string, length: number) => {
    if (!(Number.isInteger(ref) && ref >= 0 && ref < length)) {
      problems.push(`${path}: ${ref} is not a position in ${list} (${length})`);
    }
  };
  events.forEach(([, person, description], at) => {
    check(`events[${at}][1]`, person, 'people', people.length);
    check(`events[${at}][2]`, description, 'descriptions', descriptions.length);
  });
  decisions.forEach((decision, at) => {
    decision.affectedUsers.forEach((ref, i) =>
      check(`decisions[${at}].affectedUsers[${i}]`, ref, 'users', users.length),
    );
    if ('events' in decision) {
      decision.events.forEach((ref, i) =>
        check(`decisions[${at}].events[${i}]`, ref, 'events', events.length),
      );
    }
  });
  if (problems.length > 0) return joinReasons(problems);

  // A new object per use: each command owns its events and users.
  const eventAt = (ref: number): EventSummary => {
    const [id, person, description, timestamp] = events[ref];
    const [personName, personEmail] = people[person];
    return { id, personName, personEmail, description: descriptions[description], timestamp };
  };
  const userAt = (ref: number): AffectedUser => {
    const [email, name] = users[ref];
    return { email, name };
  };
  return decisions.map((shared): NotificationCommand => {
    const affectedUsers = shared.affectedUsers.map(userAt);
    const decision: NotificationDecision =
      shared.kind === 'digest-entry'
        ? { ...shared, affectedUsers }
        : { ...shared, affectedUsers, events: shared.events.map(eventAt) };
    return { version: 1, id: shared.notificationId, emittedAt, decision };
  });
}

function reasonOf(issues: readonly z.core.$ZodIssue[], record: unknown): string {
  return joinReasons(
    issues.map((issue) => {
      // The one refusal the notifier named before records had a schema: kept word for word.
      if (issue.code === 'invalid_union' && issue.path.at(-1) === 'kind') {
        const kind = valueAt(record, issue.path);
        if (typeof kind === 'string') return `Unknown decision kind ${JSON.stringify(kind)}`;
      }
      return `${pathOf(issue.path)}: ${issue.message}`;
    }),
  );
}

function joinReasons(reasons: readonly string[]): string {
  const more = reasons.length - REASONS_SHOWN;
  const shown = reasons.slice(0, REASONS_SHOWN).join('; ');
  return more > 0 ? `${shown} (and ${more} more)` : shown;
}

/** `decisions[0].events[3]`: the path as one would write it in JavaScript. */
function pathOf(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    text += typeof key === 'number' ? `[${key}]` : `${text ? '.' : ''}${String(key)}`;
  }
  return text || '(record)';
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}
