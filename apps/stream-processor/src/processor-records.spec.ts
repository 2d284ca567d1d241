import fc from 'fast-check';
import type { OutputRecord } from '@vigil/kafka';
import { applyEvents, type DetectionEvent, type DetectionState } from '@vigil/notification-policy';
import {
  WINDOW_SEGMENT_IDS,
  WINDOW_SEGMENT_PREFIX,
  detectionStateRecords,
  restoreDetectionStates,
  type StoredDetectionState,
} from './processor-records';

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
  }));
}

/** The compacted topic as a restore reads it: the last value per key, tombstones removing it. */
function compact(changelog: Map<string, Buffer>, records: OutputRecord[]): void {
  for (const { key, value } of records) {
    if (value === null) changelog.delete(key);
    else changelog.set(key, value);
  }
}

/** Feeds batches of new events (ids never repeat) and returns the state and its changelog. */
function run(batchSizes: number[], windowSize: number) {
  const changelog = new Map<string, Buffer>();
  let state: DetectionState | undefined;
  let next = 0;
  let largestWindowInRecord = 0;
  for (const size of batchSizes) {
    const previousCount = state?.count ?? 0;
    state = applyEvents(state, events('det-1', next, size), T0, {
      dedupWindowSize: windowSize,
    }).state;
    next += size;
    const records = detectionStateRecords(topics, 3, previousCount, state, windowSize);
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

  it('reads a state record that carries its whole window (older records)', () => {
    const state = applyEvents(undefined, events('det-2', 0, 1_500), T0).state;
    const changelog = new Map([['det-2', Buffer.from(JSON.stringify(state))]]);
    const restored = restoreDetectionStates(changelog, 10_000);
    expect(restored.states.get('det-2')).toEqual(state);
    expect(restored.wholeWindowRecords).toEqual(new Set(['det-2']));

    // Its next write seals the whole window, so the window survives the next restore too.
    const next = applyEvents(state, events('det-2', 1_500, 10), T0).state;
    compact(changelog, detectionStateRecords(topics, 0, state.count, next, 10_000, true));
    expect(changelog.has('dedup-window:0:det-2')).toBe(true);
    expect(restoreDetectionStates(changelog, 10_000).states.get('det-2')).toEqual(next);
  });

  it('keeps the restored window within a smaller configured window', () => {
    const { state, changelog } = run([2_500, 300], 10_000);
    const restored = restoreDetectionStates(changelog, 1_200).states.get('det-1')!;
    expect(restored.recentEventIds).toEqual(state.recentEventIds.slice(-1_200));
    const stored = JSON.parse(changelog.get('det-1')!.toString()) as StoredDetectionState;
    expect(stored.recentEventIds).toHaveLength(800);
    expect(restored).not.toHaveProperty('windowSegmentSize');
  });
});
