import fc from 'fast-check';
import { applyEvents, type DetectionEvent, type DetectionState } from '@vigil/notification-policy';
import { WindowIndexCache } from './window-index-cache';

const T0 = Date.UTC(2025, 4, 1);

const anEvent = (detectionId: string, n: number): DetectionEvent => ({
  id: `evt-${n}`,
  detectionId,
  detectionName: 'Impossible travel',
  personName: 'Ada',
  personEmail: 'ada@example.com',
  description: 'impossible travel',
  timestamp: T0 + n,
  riskScore: 5,
  source: 'okta',
});

describe('WindowIndexCache', () => {
  it('follows each window exactly and dedups as a scan would, whatever the batches', () => {
    const batch = fc.record({
      detection: fc.constantFrom('det-a', 'det-b', 'det-c'),
      // Small ids repeat: connector resends, inside a batch and across batches.
      ids: fc.array(fc.nat({ max: 120 }), { minLength: 1, maxLength: 30 }),
      commits: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(batch, { maxLength: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom(0, 5, 60),
        (batches, windowSize, maxIds) => {
          const cache = new WindowIndexCache(maxIds, 0);
          const states = new Map<string, DetectionState>();
          for (const { detection, ids, commits } of batches) {
            const previous = states.get(detection);
            const events = ids.map((n) => anEvent(detection, n));
            const options = { dedupWindowSize: windowSize };
            const windowIds = previous && cache.of(detection, previous.recentEventIds);
            if (windowIds) expect(windowIds).toEqual(new Set(previous.recentEventIds));
            const indexed = applyEvents(previous, events, T0, options, windowIds);
            expect(indexed).toEqual(applyEvents(previous, events, T0, options));
            // A batch whose transaction fails is never adopted: the set must stay as it was.
            if (!commits || indexed.added === 0) continue;
            cache.advance(
              detection,
              previous?.recentEventIds ?? [],
              indexed.state.recentEventIds,
              indexed.added,
            );
            states.set(detection, indexed.state);
            expect(cache.size).toBeLessThanOrEqual(Math.max(maxIds, windowSize));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('scans small windows instead of keeping a set of them', () => {
    const cache = new WindowIndexCache(1_000, 256);
    expect(cache.of('det-a', ['evt-1', 'evt-2'])).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops the least recently used sets beyond its bound', () => {
    const cache = new WindowIndexCache(250, 0);
    const window = (prefix: string) => Array.from({ length: 100 }, (_, i) => `${prefix}-${i}`);
    const a = window('a');
    const b = window('b');
    cache.of('det-a', a);
    cache.of('det-b', b);
    cache.of('det-a', a);
    cache.of('det-c', window('c'));
    expect(cache.size).toBe(200);
    // det-b was the least recently used: its set is rebuilt, det-a's is the one kept.
    const kept = cache.of('det-a', a);
    expect(cache.of('det-a', a)).toBe(kept);
  });

  it('rebuilds a set whose window is not the one it follows', () => {
    const cache = new WindowIndexCache(1_000, 0);
    cache.of('det-a', ['evt-1', 'evt-2']);
    cache.advance('det-a', ['evt-9'], ['evt-9', 'evt-10'], 1);
    expect(cache.size).toBe(0);
    expect(cache.of('det-a', ['evt-1', 'evt-3'])).toEqual(new Set(['evt-1', 'evt-3']));
  });
});
