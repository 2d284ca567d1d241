import type { AffectedUser } from '@vigil/contracts';
import {
  DEFAULT_DETECTION_STATE_OPTIONS,
  MAX_SOURCES_KEPT,
  emptyChannelState,
  type BufferedEvent,
  type ChannelState,
  type DetectionEvent,
  type DetectionState,
  type DetectionStateOptions,
} from './detection-state';
import { sha1Hex } from './sha1';

/** The ids of a detection's de-duplication window, as a caller keeps them for lookups. */
export interface SeenEventIds {
  has(id: string): boolean;
}

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
 * `windowIds`, when the caller keeps one, holds exactly the ids of the detection's window (the
 * last `dedupWindowSize` distinct ids): the batch's ids are then looked up in it instead of the
 * window being scanned, and `state.recentEventIds` need hold only the newest of them (the
 * processor keeps the older ones as hashes, a fraction of their size). The returned window is
 * then those newest ids and the batch's new ones.
 *
 * Throws when there is no state and no event (nothing identifies the detection) or when an event
 * belongs to another detection (a routing bug upstream).
 */
export function applyEvents(
  state: DetectionState | undefined,
  events: readonly DetectionEvent[],
  _now: number,
  options: Partial<DetectionStateOptions> = {},
  windowIds?: SeenEventIds,
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

  const seen = seenIds(current.recentEventIds, ordered, state ? windowIds : undefined);
  // New items are collected apart and joined once: concat allocates exactly what it holds, where
  // pushing onto copies would leave spare capacity in every state kept in memory.
  const newEventIds: string[] = [];
  const newPendingEvents: BufferedEvent[] = [];
  const newUsers: AffectedUser[] = [];
  const users = current.users;
  const knownUsers = new Map(users.map((user) => [user.email, user]));
  const newOverflowUserHashes: string[] = [];
  const overflow = new Set(current.overflowUserHashes);
  let { count, firstEventAt, lastEventAt, userCount, detectionName } = current;
  let added = 0;
  let batchMaxRiskScore: number | null = null;
  const batchSources: string[] = [];

  for (const event of ordered) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    newEventIds.push(event.id);
    added++;
    count++;
    firstEventAt = count === 1 ? event.timestamp : Math.min(firstEventAt, event.timestamp);
    lastEventAt = count === 1 ? event.timestamp : Math.max(lastEventAt, event.timestamp);
    if (event.detectionName) detectionName = event.detectionName;
    if (batchMaxRiskScore === null || event.riskScore > batchMaxRiskScore) {
      batchMaxRiskScore = event.riskScore;
    }
    if (!batchSources.includes(event.source)) batchSources.push(event.source);

    const email = event.personEmail.trim().toLowerCase();
    let user = knownUsers.get(email);
    if (email !== '' && !user) {
      if (users.length + newUsers.length < opts.userListLimit) {
        user = {
          email: email === event.personEmail ? event.personEmail : email,
          name: event.personName,
        };
        newUsers.push(user);
        knownUsers.set(email, user);
        userCount++;
      } else {
        const hash = sha1Hex(email).slice(0, 16);
        if (!overflow.has(hash)) {
          overflow.add(hash);
          newOverflowUserHashes.push(hash);
          userCount++;
        }
      }
    }
    // Equal strings already held by the state are shared rather than kept once per event: a
    // detection's events mostly repeat the same few people and descriptions.
    const previous = newPendingEvents.at(-1) ?? current.pendingEvents.at(-1);
    const buffered: BufferedEvent = {
      id: event.id,
      personName: user?.name === event.personName ? user.name : event.personName,
      personEmail: user?.email === event.personEmail ? user.email : event.personEmail,
      description:
        previous?.description === event.description ? previous.description : event.description,
      timestamp: event.timestamp,
      seq: count,
    };
    newPendingEvents.push(buffered);
  }

  return {
    state: {
      ...current,
      detectionName,
      count,
      firstEventAt,
      lastEventAt,
      userCount,
      users: joined(users, newUsers),
      overflowUserHashes: joined(current.overflowUserHashes, newOverflowUserHashes),
      recentEventIds: keepLast(joined(current.recentEventIds, newEventIds), opts.dedupWindowSize),
      pendingEvents: keepLast(
        joined(current.pendingEvents, newPendingEvents),
        opts.eventBufferLimit,
      ),
      channels:
        added === 0
          ? current.channels
          : withNewEvents(current.channels, batchMaxRiskScore, batchSources),
    },
    added,
  };
}

/**
 * Each channel's facts about its new events once a batch's new events are counted. Channels
 * with the same facts (both notified together, the usual case) share the result: the lists are
 * never changed in place.
 */
function withNewEvents(
  channels: DetectionState['channels'],
  maxRiskScore: number | null,
  sources: readonly string[],
): DetectionState['channels'] {
  const { webhook, email } = channels;
  const nextWebhook = channelWithNewEvents(webhook, maxRiskScore, sources);
  const sameFacts =
    email.newMaxRiskScore === webhook.newMaxRiskScore &&
    email.newSources.length === webhook.newSources.length &&
    email.newSources.every((source, i) => source === webhook.newSources[i]);
  const nextEmail = sameFacts
    ? {
        ...email,
        newMaxRiskScore: nextWebhook.newMaxRiskScore,
        newSources: nextWebhook.newSources,
      }
    : channelWithNewEvents(email, maxRiskScore, sources);
  return { webhook: nextWebhook, email: nextEmail };
}

function channelWithNewEvents(
  channel: ChannelState,
  maxRiskScore: number | null,
  sources: readonly string[],
): ChannelState {
  const known = channel.newMaxRiskScore;
  const newMaxRiskScore =
    known === null || (maxRiskScore !== null && maxRiskScore > known) ? maxRiskScore : known;
  const unseen = sources.filter((source) => !channel.newSources.includes(source));
  const room = MAX_SOURCES_KEPT - channel.newSources.length;
  const newSources =
    unseen.length === 0 || room <= 0
      ? channel.newSources
      : channel.newSources.concat(unseen.slice(0, room));
  return newMaxRiskScore === known && newSources === channel.newSources
    ? channel
    : { ...channel, newMaxRiskScore, newSources };
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

/**
 * The ids of `events` already in the window. One pass over the window against the batch's ids,
 * rather than a set of the whole window: a batch is usually far smaller than the 10,000-id window.
 */
function seenIds(
  window: readonly string[],
  events: readonly DetectionEvent[],
  windowIds: SeenEventIds | undefined,
): Set<string> {
  const seen = new Set<string>();
  if (windowIds) {
    for (const event of events) if (windowIds.has(event.id)) seen.add(event.id);
    return seen;
  }
  const batchIds = new Set<string>();
  for (const event of events) batchIds.add(event.id);
  for (const id of window) if (batchIds.has(id)) seen.add(id);
  return seen;
}

function joined<T>(items: T[], added: T[]): T[] {
  return added.length === 0 ? items : items.concat(added);
}

function keepLast<T>(items: T[], limit: number): T[] {
  return items.length > limit ? items.slice(items.length - Math.max(0, limit)) : items;
}
