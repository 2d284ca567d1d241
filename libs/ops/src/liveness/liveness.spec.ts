import { Liveness } from './liveness';

const limits = { stallMs: 60_000, stepMaxMs: 300_000 };

describe('Liveness', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 0));

  it('is alive with no loop at all (an HTTP app answering proves its event loop turns)', () => {
    expect(new Liveness(limits, clock).report()).toEqual({ alive: true, stuck: [] });
  });

  it('is alive while a loop keeps polling, found work or not', () => {
    const liveness = new Liveness(limits, clock);
    const loop = liveness.watch('indexer', 'consumer vigil-indexer');
    for (let t = 0; t <= 600_000; t += 5_000) {
      now = t;
      loop.beat();
      expect(liveness.report().alive).toBe(true);
    }
  });

  it('names a loop that has not beaten for longer than the stall limit', () => {
    const liveness = new Liveness(limits, clock);
    liveness.watch('notifier', 'consumer vigil-notifier');
    now = 60_000;
    expect(liveness.report().alive).toBe(true);
    now = 61_000;
    expect(liveness.report()).toEqual({
      alive: false,
      stuck: [
        {
          app: 'notifier',
          loop: 'consumer vigil-notifier',
          reason: 'no progress for 61 s (limit 60 s)',
        },
      ],
    });
  });

  it('lets a step run past the stall limit, but not past the step limit', () => {
    const liveness = new Liveness(limits, clock);
    const loop = liveness.watch('stream-processor', 'processor');
    const done = loop.stepStarted();
    now = 200_000;
    expect(liveness.report().alive).toBe(true);
    now = 301_000;
    expect(liveness.report().stuck[0].reason).toBe(
      'a step has been running for 301 s (limit 300 s)',
    );
    done();
    expect(liveness.report().alive).toBe(true);
  });

  it('counts the end of a step as progress, and tracks concurrent steps apart', () => {
    const liveness = new Liveness(limits, clock);
    const loop = liveness.watch('stream-processor', 'processor');
    const first = loop.stepStarted();
    now = 100_000;
    const second = loop.stepStarted();
    first();
    now = 350_000;
    expect(liveness.report().alive).toBe(true);
    now = 401_000;
    expect(liveness.report().alive).toBe(false);
    second();
    now = 402_000;
    expect(liveness.report().alive).toBe(true);
  });

  it('no longer watches a loop stopped on purpose or forgotten', () => {
    const liveness = new Liveness(limits, clock);
    const stopped = liveness.watch('indexer', 'a');
    const forgotten = liveness.watch('indexer', 'b');
    stopped.stop();
    liveness.forget(forgotten);
    now = 1_000_000;
    expect(liveness.report().alive).toBe(true);
  });
});
