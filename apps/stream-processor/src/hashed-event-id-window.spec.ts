import fc from 'fast-check';
import { applyEvents, type DetectionEvent, type DetectionState } from '@vigil/notification-policy';
import { unsealedWindowIds } from './detection-state-records';
import { HashedEventIdWindow, randomEventIdHashSeed } from './hashed-event-id-window';

const T0 = Date.UTC(2025, 4, 1);
const SEED = { a: 0x9e3779b9, b: 0x7f4a7c15 };

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

/** Appends to the last `size` distinct ids as a plain list does it. */
function appendToReference(window: string[], ids: readonly string[], size: number): void {
  for (const id of ids) {
    if (window.includes(id)) continue;
    window.push(id);
    if (window.length > size) window.shift();
  }
}

describe('HashedEventIdWindow', () => {
  it('holds exactly the last `size` distinct ids, whatever is appended', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.nat({ max: 300 }), { maxLength: 60 }), { maxLength: 30 }),
        fc.integer({ min: 0, max: 120 }),
        (batches, size) => {
          const window = new HashedEventIdWindow(size, SEED);
          const expected: string[] = [];
          for (const batch of batches) {
            const ids = batch.map((n) => `evt-${n}`);
            window.append(ids);
            appendToReference(expected, ids, size);
            expect(window.length).toBe(expected.length);
            const held = new Set(expected);
            for (let n = 0; n <= 300; n++) {
              if (window.has(`evt-${n}`) !== held.has(`evt-${n}`)) {
                throw new Error(`evt-${n}: ${held.has(`evt-${n}`) ? 'lost' : 'invented'}`);
              }
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds every id after many evictions through a table that grew and wrapped', () => {
    const window = new HashedEventIdWindow(10_000, randomEventIdHashSeed());
    for (let start = 0; start < 50_000; start += 1_000) {
      window.append(Array.from({ length: 1_000 }, (_, i) => `id-${start + i}`));
    }
    expect(window.length).toBe(10_000);
    const wrong: number[] = [];
    for (let n = 0; n < 50_000; n++) if (window.has(`id-${n}`) !== n >= 40_000) wrong.push(n);
    expect(wrong).toEqual([]);
  });

  it('keeps a full window of 10,000 ids in about 21 bytes each', () => {
    const window = new HashedEventIdWindow(10_000, SEED);
    window.append(Array.from({ length: 10_000 }, (_, i) => `0f8e6c2a-4b1d-4e7f-9a3c-${i}`));
    expect(window.byteLength / 10_000).toBeLessThan(22);
  });

  it('remembers nothing with a window of size 0', () => {
    const window = new HashedEventIdWindow(0, SEED);
    window.append(['evt-1', 'evt-2']);
    expect(window.length).toBe(0);
    expect(window.has('evt-1')).toBe(false);
  });

  it("dedups in the fold as the detection's whole window would, with only its unsealed ids kept", () => {
    const batch = fc.record({
      // Small ids repeat: connector resends, inside a batch and across batches.
      ids: fc.array(fc.nat({ max: 200 }), { minLength: 1, maxLength: 40 }),
      commits: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(batch, { maxLength: 40 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 25 }),
        (batches, dedupWindowSize, segmentSize) => {
          const options = { dedupWindowSize };
          const window = new HashedEventIdWindow(dedupWindowSize, SEED);
          let wholeState: DetectionState | undefined;
          let kept: DetectionState | undefined;
          for (const { ids, commits } of batches) {
            const events = ids.map((n) => anEvent('det-a', n));
            const expected = applyEvents(wholeState, events, T0, options);
            const actual = applyEvents(kept, events, T0, options, kept && window);
            expect(actual.added).toBe(expected.added);
            expect({ ...actual.state, recentEventIds: [] }).toEqual({
              ...expected.state,
              recentEventIds: [],
            });
            // The kept ids are the newest of the whole window.
            const whole = expected.state.recentEventIds;
            const newest = actual.state.recentEventIds;
            expect(whole.slice(whole.length - newest.length)).toEqual(newest);
            // A batch whose transaction fails is never adopted: the window stays as it was.
            if (!commits || actual.added === 0) continue;
            const newIds = actual.state.recentEventIds;
            window.append(newIds.slice(newIds.length - Math.min(actual.added, newIds.length)));
            wholeState = expected.state;
            kept = unsealedWindowIds(actual.state, segmentSize);
            expect(kept.recentEventIds.length).toBeLessThan(segmentSize);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
