import fc from 'fast-check';
import type { OutputRecord } from '@vigil/kafka';
import { applyEvents, type DetectionEvent, type DetectionState } from '@vigil/notification-policy';
import {
  WINDOW_SEGMENT_IDS,
  detectionStateRecords,
  restoreDetectionStates,
  type StoredDetectionState,
} from './detection-state-records';
import { WINDOW_SEGMENT_PREFIX, windowSegmentKey } from '@vigil/contracts';

const topics = { notificationCommands: 'commands', detectionState: 'state' };
const T0 = Date.UTC(2025, 4, 1);

function events(detectionId: string, from: number, count: number): DetectionEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `evt-${from + i}`,
    detectionId,
    detectionName: 'Impossible travel',
    personName: 'Ada',
    personEmail: 'ada@example.com',
    description: 'impossible travel on okta',
    timestamp: T0 + from + i,
    riskScore: 5,
    source: 'okta',
  }));
}

/** The compacted topic as a restore reads it: the last value per key, tombstones removing it. */
function compact(changelog: Map<string, Buffer>, records: OutputRecord[]): void {
  for (const { key, value } of records) {
    if (value === null) changelog.delete(key);
    else changelog.set(key, value);
  }
}

/**
 * Feeds batches of new events (ids never repeat) and returns the state and its changelog; from
 * a restored state and its changelog when given, resealing its window at the first write.
 */
function run(
  batchSizes: number[],
  windowSize: number,
  segmentSize = WINDOW_SEGMENT_IDS,
  from: { state: DetectionState; changelog: Map<string, Buffer> } | null = null,
) {
  const changelog = from?.changelog ?? new Map<string, Buffer>();
  let state: DetectionState | undefined = from?.state;
  let reseal = from
    ? restoreDetectionStates(changelog, windowSize, segmentSize).reseals.get('det-1')
    : undefined;
  let next = state?.count ?? 0;
  let largestWindowInRecord = 0;
  for (const size of batchSizes) {
    const previousCount = state?.count ?? 0;
    state = applyEvents(state, events('det-1', next, size), T0, {
      dedupWindowSize: windowSize,
    }).state;
    next += size;
    const records = detectionStateRecords(
      topics,
      3,
      previousCount,
      state,
      windowSize,
      reseal,
      segmentSize,
    );
    reseal = undefined;
    expect(records.every((r) => r.partition === 3 && r.topic === 'state')).toBe(true);
    const stored = records.find((r) => r.key === 'det-1')!;
    largestWindowInRecord = Math.max(
      largestWindowInRecord,
      (JSON.parse(stored.value!.toString()) as StoredDetectionState).recentEventIds.length,
    );
    compact(changelog, records);
  }
  return { state: state!, changelog, largestWindowInRecord };
}

describe('detection state records', () => {
  it('restores the whole de-duplication window from the state record and sealed segments', () => {
    const { state, changelog } = run([400, 700, 1, 2_300, 10, 9_000, 5], 10_000);
    expect(state.recentEventIds).toHaveLength(10_000);
    expect(restoreDetectionStates(changelog, 10_000).states.get('det-1')).toEqual(state);
    const segments = [...changelog.keys()].filter((k) => k.startsWith(WINDOW_SEGMENT_PREFIX));
    // Segments that left the window were tombstoned: at most window / segment + 1 remain.
    expect(segments.length).toBeLessThanOrEqual(10_000 / WINDOW_SEGMENT_IDS + 1);
  });

  it('does not rewrite the window at each batch: a state record carries only the unsealed ids', () => {
    const { largestWindowInRecord } = run(Array<number>(24).fill(500), 10_000);
    expect(largestWindowInRecord).toBeLessThan(WINDOW_SEGMENT_IDS);
  });

  it('matches the in-memory state for any batch sizes and window size', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 2_600 }), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(1, 7, 999, 1_000, 1_001, 2_500, 10_000),
        (batchSizes, windowSize) => {
          const { state, changelog } = run(batchSizes, windowSize);
          expect(restoreDetectionStates(changelog, windowSize).states.get('det-1')).toEqual(state);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('hands each detection to `keep` as it is restored, its whole window with it, and keeps what it returns', () => {
    const changelog = new Map<string, Buffer>();
    const a = run([250], 10_000);
    const b = run([130], 10_000);
    for (const [key, value] of a.changelog) changelog.set(key, value);
    for (const [key, value] of b.changelog) changelog.set(key.replace('det-1', 'det-2'), value);
    const kept: string[] = [];
    const restored = restoreDetectionStates(changelog, 10_000, WINDOW_SEGMENT_IDS, (id, state) => {
      kept.push(`${id}:${state.recentEventIds.length}`);
      return { ...state, recentEventIds: [] };
    });
    expect(kept.sort()).toEqual(['det-1:250', 'det-2:130']);
    expect([...restored.states.values()].map((s) => s.recentEventIds)).toEqual([[], []]);
  });

  it('reads a state record that carries its whole window (older records)', () => {
    const state = applyEvents(undefined, events('det-2', 0, 1_500), T0).state;
    const changelog = new Map([['det-2', Buffer.from(JSON.stringify(state))]]);
    const restored = restoreDetectionStates(changelog, 10_000);
    expect(restored.states.get('det-2')).toEqual(state);
    const reseal = restored.reseals.get('det-2');
    expect(reseal).toEqual({ rewriteWindow: true, staleSegmentKeys: [] });

    // Its next write seals the whole window, so the window survives the next restore too.
    const next = applyEvents(state, events('det-2', 1_500, 10), T0).state;
    compact(changelog, detectionStateRecords(topics, 0, state.count, next, 10_000, reseal));
    expect(changelog.has(windowSegmentKey(WINDOW_SEGMENT_IDS, 0, 'det-2'))).toBe(true);
    const again = restoreDetectionStates(changelog, 10_000);
    expect(again.states.get('det-2')).toEqual(next);
    expect(again.reseals.size).toBe(0);
  });

  it('reads segments of the first layout (1,000 ids, no size in the key), then replaces them', () => {
    const written = run([2_500, 1_200, 30], 10_000, 1_000);
    const changelog = new Map(
      [...written.changelog].map(([key, value]) => [
        key.replace(`${WINDOW_SEGMENT_PREFIX}1000/`, WINDOW_SEGMENT_PREFIX),
        value,
      ]),
    );
    expect(changelog.has(`${WINDOW_SEGMENT_PREFIX}2:det-1`)).toBe(true);
    const restored = restoreDetectionStates(changelog, 10_000);
    expect(restored.states.get('det-1')).toEqual(written.state);
    expect(restored.reseals.get('det-1')).toEqual({
      rewriteWindow: true,
      staleSegmentKeys: [0, 1, 2].map((segment) => `${WINDOW_SEGMENT_PREFIX}${segment}:det-1`),
    });

    const { state } = run([5], 10_000, WINDOW_SEGMENT_IDS, { state: written.state, changelog });
    const segments = [...changelog.keys()].filter((k) => k.startsWith(WINDOW_SEGMENT_PREFIX));
    expect(segments.every((k) => k.startsWith(`${WINDOW_SEGMENT_PREFIX}${WINDOW_SEGMENT_IDS}/`)));
    expect(segments).toHaveLength(Math.floor(state.count / WINDOW_SEGMENT_IDS));
    const again = restoreDetectionStates(changelog, 10_000);
    expect(again.states.get('det-1')).toEqual(state);
    expect(again.reseals.size).toBe(0);
  });

  it('keeps the window across a change of segment size, whatever the sizes and batches', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 2_600 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(7, 100, 999, 1_000),
        fc.constantFrom(7, 100, 999, 1_000),
        fc.constantFrom(1, 999, 1_000, 2_500, 10_000),
        (before, after, oldSize, newSize, windowSize) => {
          const written = run(before, windowSize, oldSize);
          const restored = restoreDetectionStates(written.changelog, windowSize, newSize);
          expect(restored.states.get('det-1')).toEqual(written.state);
          const { state, changelog } = run(after, windowSize, newSize, written);
          const again = restoreDetectionStates(changelog, windowSize, newSize);
          expect(again.states.get('det-1')).toEqual(state);
          expect(again.reseals.size).toBe(0);
          const segments = [...changelog.keys()].filter((k) => k.startsWith(WINDOW_SEGMENT_PREFIX));
          expect(segments.every((k) => k.startsWith(`${WINDOW_SEGMENT_PREFIX}${newSize}/`))).toBe(
            true,
          );
          expect(segments.length).toBeLessThanOrEqual(Math.ceil(windowSize / newSize) + 1);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('restores a state record written before channels kept risk scores and sources', () => {
    // Written by the processor of that version: webhook notified at 3, email at 5, six events.
    const changelog = new Map([
      [
        'det-old',
        Buffer.from(
          '{"schemaVersion":1,"detectionId":"det-old","detectionName":"Impossible travel","count":6,"firstEventAt":1746057601000,"lastEventAt":1746057606000,"userCount":2,"users":[{"email":"ada@example.com","name":"Ada"},{"email":"alan@example.com","name":"Alan"}],"overflowUserHashes":[],"recentEventIds":["evt-1","evt-2","evt-3","evt-4","evt-5","evt-6"],"pendingEvents":[{"id":"evt-6","personName":"Alan","personEmail":"alan@example.com","description":"impossible travel on okta","timestamp":1746057606000,"seq":6}],"channels":{"webhook":{"lastNotifiedCount":3,"lastNotifiedAt":1746057610000,"digest":null},"email":{"lastNotifiedCount":5,"lastNotifiedAt":1746057620000,"digest":{"windowStart":1746057600000,"windowEnd":1746061200000,"baseCount":0,"baseAt":null}}},"windowSegmentSize":100}',
        ),
      ],
    ]);
    const restored = restoreDetectionStates(changelog, 10_000).states.get('det-old')!;
    expect(restored).toMatchObject({
      count: 6,
      recentEventIds: ['evt-1', 'evt-2', 'evt-3', 'evt-4', 'evt-5', 'evt-6'],
    });
    expect(restored.channels.webhook).toEqual({
      lastNotifiedCount: 3,
      lastNotifiedAt: 1746057610000,
      digest: null,
      newMaxRiskScore: null,
      newSources: [],
    });
    expect(restored.channels.email).toMatchObject({
      lastNotifiedCount: 5,
      newMaxRiskScore: null,
      newSources: [],
    });

    // New events after the upgrade are counted and scored as usual; an old one still dedups.
    const next = applyEvents(restored, events('det-old', 6, 3), T0).state;
    expect(next.count).toBe(8);
    expect(next.channels.webhook).toMatchObject({ newMaxRiskScore: 5, newSources: ['okta'] });
    compact(changelog, detectionStateRecords(topics, 0, 6, next, 10_000));
    expect(restoreDetectionStates(changelog, 10_000).states.get('det-old')).toEqual(next);
  });

  it('keeps the restored window within a smaller configured window', () => {
    const { state, changelog } = run([2_500, 300], 10_000);
    const restored = restoreDetectionStates(changelog, 1_200).states.get('det-1')!;
    expect(restored.recentEventIds).toEqual(state.recentEventIds.slice(-1_200));
    const stored = JSON.parse(changelog.get('det-1')!.toString()) as StoredDetectionState;
    expect(stored.recentEventIds).toHaveLength(state.count % WINDOW_SEGMENT_IDS);
    expect(restored).not.toHaveProperty('windowSegmentSize');
  });
});
