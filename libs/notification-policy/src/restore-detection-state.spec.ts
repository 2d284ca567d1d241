import { decide } from './decide';
import type { DetectionState } from './detection-state';
import { restoreDetectionState, type StoredDetectionState } from './restore-detection-state';
import { addEvents, settings, T0 } from './testing/factories';

/**
 * A state record as the processor wrote it before channels kept the risk scores and sources of
 * their new events (the `det-old` record of that version, its window segment size left out).
 */
const WRITTEN_BEFORE_SCORES: StoredDetectionState = JSON.parse(
  '{"schemaVersion":1,"detectionId":"7d0f3c1e-2b4a-4c6d-8e9f-0a1b2c3d4e5f","detectionName":"Impossible travel","count":6,"firstEventAt":1746057601000,"lastEventAt":1746057606000,"userCount":2,"users":[{"email":"ada@example.com","name":"Ada"},{"email":"alan@example.com","name":"Alan"}],"overflowUserHashes":[],"recentEventIds":["evt-1","evt-2","evt-3","evt-4","evt-5","evt-6"],"pendingEvents":[{"id":"evt-6","personName":"Alan","personEmail":"alan@example.com","description":"impossible travel on okta","timestamp":1746057606000,"seq":6}],"channels":{"webhook":{"lastNotifiedCount":3,"lastNotifiedAt":1746057610000,"digest":null},"email":{"lastNotifiedCount":5,"lastNotifiedAt":1746057620000,"digest":{"windowStart":1746057600000,"windowEnd":1746061200000,"baseCount":0,"baseAt":null}}}}',
) as StoredDetectionState;

describe('restoreDetectionState', () => {
  it('reads a state written before channels kept scores and sources as not known', () => {
    const state = restoreDetectionState(WRITTEN_BEFORE_SCORES);
    expect(state.channels.webhook).toEqual({
      lastNotifiedCount: 3,
      lastNotifiedAt: 1746057610000,
      digest: null,
      newMaxRiskScore: null,
      newSources: [],
    });
    expect(state.channels.email).toMatchObject({ newMaxRiskScore: null, newSources: [] });
    expect(state.count).toBe(6);
  });

  it('decides on a restored old state as on any other, counting new events from then on', () => {
    const state: DetectionState = restoreDetectionState(WRITTEN_BEFORE_SCORES);
    const old = decide(state, settings(), T0 + 1_000_000_000).decisions;
    expect(old.map((d) => [d.kind, d.previousCount, d.currentCount])).toEqual([
      ['webhook', 3, 6],
      ['email', 5, 6],
    ]);
    expect(old[0]).toMatchObject({ maxRiskScore: null, sources: [] });
    const later = decide(addEvents(state, 7, 7), settings(), T0 + 1_000_000_000).decisions;
    expect(later[0]).toMatchObject({ maxRiskScore: 0.7, sources: ['okta'] });
  });

  it('keeps a current state as it is', () => {
    const current = restoreDetectionState(WRITTEN_BEFORE_SCORES);
    expect(restoreDetectionState(current)).toEqual(current);
  });
});
