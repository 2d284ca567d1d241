import { applyEvents } from './apply-events';
import { MAX_SOURCES_KEPT } from './detection-state';
import {
  addEvents,
  deepFreeze,
  DETECTION_ID,
  event,
  events,
  stateWith,
  T0,
} from './testing/factories';

describe('applyEvents', () => {
  it('starts a detection from its first events', () => {
    const { state, added } = applyEvents(undefined, events(1, 3), T0);
    expect(added).toBe(3);
    expect(state).toMatchObject({
      schemaVersion: 1,
      detectionId: DETECTION_ID,
      detectionName: 'Impossible travel',
      count: 3,
      firstEventAt: T0 + 1000,
      lastEventAt: T0 + 3000,
      channels: {
        webhook: { lastNotifiedCount: 0, lastNotifiedAt: null, digest: null },
        email: { lastNotifiedCount: 0, lastNotifiedAt: null, digest: null },
      },
    });
  });

  it('needs a state or an event to know the detection', () => {
    expect(() => applyEvents(undefined, [], T0)).toThrow(RangeError);
  });

  it('refuses an event of another detection', () => {
    expect(() => applyEvents(stateWith(1), [event(2, { detectionId: 'other' })], T0)).toThrow(
      /belongs to detection other/,
    );
  });

  it('returns the state unchanged in substance for an empty batch', () => {
    const state = stateWith(2);
    expect(applyEvents(state, [], T0)).toEqual({ state, added: 0 });
  });

  it('does not count an event id twice when a connector resends it', () => {
    const state = stateWith(3);
    const { state: next, added } = applyEvents(state, [event(2), event(3), event(4)], T0);
    expect(added).toBe(1);
    expect(next.count).toBe(4);
  });

  it('does not count a duplicate inside one batch', () => {
    const { state, added } = applyEvents(undefined, [event(1), event(1), event(2)], T0);
    expect(added).toBe(2);
    expect(state.count).toBe(2);
  });

  it('remembers ids within the de-duplication window only (the last K distinct ids)', () => {
    const options = { dedupWindowSize: 3 };
    let state = applyEvents(undefined, events(1, 4), T0, options).state;
    expect(state.recentEventIds).toEqual(['evt-2', 'evt-3', 'evt-4']);
    expect(applyEvents(state, [event(3)], T0, options).added).toBe(0);
    // evt-1 left the window: a resend this late counts again (documented trade-off).
    state = applyEvents(state, [event(1)], T0, options).state;
    expect(state.count).toBe(5);
  });

  it('does not depend on the order of records inside a batch', () => {
    const forward = applyEvents(undefined, events(1, 6), T0).state;
    const backward = applyEvents(undefined, events(1, 6).reverse(), T0).state;
    expect(backward).toEqual(forward);
  });

  it('tracks the earliest and latest event times even when events arrive out of order', () => {
    const state = applyEvents(stateWith(1), [event(9), event(0)], T0).state;
    expect(state.firstEventAt).toBe(T0);
    expect(state.lastEventAt).toBe(T0 + 9000);
  });

  it('counts affected users by email, case-insensitively, in first-seen order', () => {
    const state = applyEvents(
      undefined,
      [
        event(1, { personEmail: 'Ann@Example.com', personName: 'Ann' }),
        event(2, { personEmail: 'bob@example.com', personName: 'Bob' }),
        event(3, { personEmail: 'ann@example.com ', personName: 'Ann B.' }),
      ],
      T0,
    ).state;
    expect(state.userCount).toBe(2);
    expect(state.users).toEqual([
      { email: 'ann@example.com', name: 'Ann' },
      { email: 'bob@example.com', name: 'Bob' },
    ]);
  });

  it('keeps the user count exact beyond the capped user list', () => {
    const options = { userListLimit: 2 };
    const batch = Array.from({ length: 6 }, (_, i) =>
      event(i, { personEmail: `user${i % 5}@example.com` }),
    );
    const state = applyEvents(undefined, batch, T0, options).state;
    expect(state.users.map((u) => u.email)).toEqual(['user0@example.com', 'user1@example.com']);
    expect(state.userCount).toBe(5);
    expect(state.overflowUserHashes).toHaveLength(3);
    const again = applyEvents(
      state,
      [event(10, { personEmail: 'user4@example.com' })],
      T0,
      options,
    );
    expect(again.state.userCount).toBe(5);
  });

  it('buffers new events with their rank and keeps only the newest beyond the buffer limit', () => {
    const state = stateWith(5, T0, { eventBufferLimit: 3 });
    expect(state.pendingEvents.map((e) => [e.id, e.seq])).toEqual([
      ['evt-3', 3],
      ['evt-4', 4],
      ['evt-5', 5],
    ]);
    expect(state.count).toBe(5);
  });

  it('keeps, for each channel, the highest risk score and the sources of the events it has not reported', () => {
    const state = applyEvents(
      undefined,
      [event(4), event(5), event(2, { riskScore: 7 })],
      T0,
    ).state;
    for (const channel of [state.channels.webhook, state.channels.email]) {
      expect(channel).toMatchObject({ newMaxRiskScore: 7, newSources: ['okta', 'github'] });
    }
    const again = applyEvents(state, [event(6, { riskScore: 9, source: 'aws' })], T0).state;
    expect(again.channels.webhook).toMatchObject({
      newMaxRiskScore: 9,
      newSources: ['okta', 'github', 'aws'],
    });
  });

  it('leaves the channels as they are when only known events arrive', () => {
    const state = stateWith(3);
    const resent = applyEvents(state, [event(1, { riskScore: 99, source: 'aws' })], T0).state;
    expect(resent.channels).toBe(state.channels);
  });

  it('keeps at most MAX_SOURCES_KEPT sources per channel', () => {
    const batch = Array.from({ length: MAX_SOURCES_KEPT + 5 }, (_, i) =>
      event(i + 1, { source: `source-${i}` }),
    );
    const { channels } = applyEvents(undefined, batch, T0).state;
    expect(channels.webhook.newSources).toHaveLength(MAX_SOURCES_KEPT);
    expect(channels.webhook.newSources[0]).toBe('source-0');
  });

  it('follows a detection rename', () => {
    const state = applyEvents(stateWith(1), [event(2, { detectionName: 'Renamed' })], T0).state;
    expect(state.detectionName).toBe('Renamed');
  });

  it('does not mutate its inputs', () => {
    const state = deepFreeze(stateWith(2));
    const batch = deepFreeze(events(2, 4));
    expect(() => addEvents(state, 3, 4)).not.toThrow();
    expect(() => applyEvents(state, batch, T0)).not.toThrow();
  });
});
