import {
  DEFAULT_DETECTION_STATE_OPTIONS,
  emptyChannelState,
  type AffectedUser,
  type BufferedEvent,
  type DetectionEvent,
  type DetectionState,
  type DetectionStateOptions,
} from './detection-state';
import { sha1Hex } from './sha1';

export interface ApplyEventsResult {
  state: DetectionState;
  /** How many events were new (not already seen within the de-duplication window). */
  added: number;
}

/**
 * Folds a micro-batch of one detection's events into its state. Events are taken in
 * (timestamp, id) order so the result does not depend on the order of records inside the batch;
 * an id already seen within the de-duplication window (connector retries) counts nothing.
 * `now` is not needed by the fold itself; it is accepted so every entry point takes the clock.
 *
 * Throws when there is no state and no event (nothing identifies the detection) or when an event
 * belongs to another detection (a routing bug upstream).
 */
export function applyEvents(
  state: DetectionState | undefined,
  events: readonly DetectionEvent[],
  _now: number,
  options: Partial<DetectionStateOptions> = {},
): ApplyEventsResult {
  const opts = { ...DEFAULT_DETECTION_STATE_OPTIONS, ...options };
  const ordered = [...events].sort(
    (a, b) => a.timestamp - b.timestamp || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const current = state ?? initialState(ordered[0]);
  for (const event of ordered) {
    if (event.detectionId !== current.detectionId) {
      throw new RangeError(
        `event ${event.id} belongs to detection ${event.detectionId}, not ${current.detectionId}`,
      );
    }
  }

  const seen = new Set(current.recentEventIds);
  const recentEventIds = [...current.recentEventIds];
  const pendingEvents = [...current.pendingEvents];
  const users = [...current.users];
  const knownEmails = new Set(users.map((user) => user.email));
  const overflowUserHashes = [...current.overflowUserHashes];
  const overflow = new Set(overflowUserHashes);
  let { count, firstEventAt, lastEventAt, userCount, detectionName } = current;
  let added = 0;

  for (const event of ordered) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    recentEventIds.push(event.id);
    added++;
    count++;
    firstEventAt = count === 1 ? event.timestamp : Math.min(firstEventAt, event.timestamp);
    lastEventAt = count === 1 ? event.timestamp : Math.max(lastEventAt, event.timestamp);
    if (event.detectionName) detectionName = event.detectionName;
    const buffered: BufferedEvent = {
      id: event.id,
      personName: event.personName,
      personEmail: event.personEmail,
      description: event.description,
      timestamp: event.timestamp,
      seq: count,
    };
    pendingEvents.push(buffered);

    const email = event.personEmail.trim().toLowerCase();
    if (email === '' || knownEmails.has(email)) continue;
    if (users.length < opts.userListLimit) {
      const user: AffectedUser = { email, name: event.personName };
      users.push(user);
      knownEmails.add(email);
      userCount++;
    } else {
      const hash = sha1Hex(email).slice(0, 16);
      if (!overflow.has(hash)) {
        overflow.add(hash);
        overflowUserHashes.push(hash);
        userCount++;
      }
    }
  }

  return {
    state: {
      ...current,
      detectionName,
      count,
      firstEventAt,
      lastEventAt,
      userCount,
      users,
      overflowUserHashes,
      recentEventIds: keepLast(recentEventIds, opts.dedupWindowSize),
      pendingEvents: keepLast(pendingEvents, opts.eventBufferLimit),
    },
    added,
  };
}

function initialState(first: DetectionEvent | undefined): DetectionState {
  if (!first) throw new RangeError('applyEvents needs a state or at least one event');
  return {
    schemaVersion: 1,
    detectionId: first.detectionId,
    detectionName: first.detectionName,
    count: 0,
    firstEventAt: first.timestamp,
    lastEventAt: first.timestamp,
    userCount: 0,
    users: [],
    overflowUserHashes: [],
    recentEventIds: [],
    pendingEvents: [],
    channels: { webhook: emptyChannelState(), email: emptyChannelState() },
  };
}

function keepLast<T>(items: T[], limit: number): T[] {
  return items.length > limit ? items.slice(items.length - Math.max(0, limit)) : items;
}
