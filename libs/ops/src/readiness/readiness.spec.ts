import { Readiness } from './readiness';
import type { ReadinessCheck } from './readiness-check';

const answers = (dependency: string): ReadinessCheck => ({ dependency, check: async () => {} });
const fails = (dependency: string, message: string): ReadinessCheck => ({
  dependency,
  check: async () => {
    throw new Error(message);
  },
});
/** A check that never answers, counting how often it was started. */
function hangs(dependency: string): ReadinessCheck & { starts: number } {
  const check = {
    dependency,
    starts: 0,
    check: () => {
      check.starts += 1;
      return new Promise<void>(() => undefined);
    },
  };
  return check;
}

describe('Readiness', () => {
  it('is ready when every dependency answers, and names them', async () => {
    const readiness = new Readiness();
    readiness.add('api', [answers('postgresql'), answers('elasticsearch')]);
    expect(await readiness.report()).toEqual({
      ready: true,
      failing: [],
      dependencies: [
        { dependency: 'postgresql', up: true },
        { dependency: 'elasticsearch', up: true },
      ],
    });
  });

  it('names the failing dependency and why', async () => {
    const readiness = new Readiness();
    readiness.add('api', [answers('postgresql'), fails('elasticsearch', 'connect ECONNREFUSED')]);
    const report = await readiness.report();
    expect(report.ready).toBe(false);
    expect(report.failing).toEqual([
      { dependency: 'elasticsearch', reason: 'connect ECONNREFUSED' },
    ]);
  });

  it('answers within the timeout when a server hangs, and starts no second check meanwhile', async () => {
    const readiness = new Readiness({ timeoutMs: 50, cacheMs: 0 });
    const database = hangs('postgresql');
    readiness.add('api', [database]);
    const started = Date.now();
    const first = await readiness.report();
    const second = await readiness.report();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(first.failing).toEqual([{ dependency: 'postgresql', reason: 'timed out after 50 ms' }]);
    expect(second.ready).toBe(false);
    expect(database.starts).toBe(1);
  });

  it('reuses an answer for its cache time', async () => {
    let now = 0;
    let calls = 0;
    const readiness = new Readiness({ cacheMs: 2_000, clock: () => now });
    readiness.add('api', [{ dependency: 'postgresql', check: async () => void (calls += 1) }]);
    await readiness.report();
    now = 1_999;
    await readiness.report();
    expect(calls).toBe(1);
    now = 2_000;
    await readiness.report();
    expect(calls).toBe(2);
  });

  it('lists a dependency several apps share once, failing if it fails for any', async () => {
    const readiness = new Readiness();
    readiness.add('api', [answers('postgresql')]);
    readiness.add('web', [fails('postgresql', 'too many connections')]);
    const report = await readiness.report();
    expect(report.dependencies).toEqual([{ dependency: 'postgresql', up: false }]);
    expect(report.failing).toEqual([{ dependency: 'postgresql', reason: 'too many connections' }]);
  });

  it('tells every result per app, for the dependency gauge', async () => {
    const results: string[] = [];
    const readiness = new Readiness({
      onResult: (app, dependency, up) => results.push(`${app} ${dependency} ${up}`),
    });
    readiness.add('api', [answers('postgresql')]);
    readiness.add('notifier', [fails('smtp', 'greeting never received')]);
    await readiness.report();
    expect(results.sort()).toEqual(['api postgresql true', 'notifier smtp false']);
  });

  it('forgets the checks of an app that stopped', async () => {
    const readiness = new Readiness();
    const remove = readiness.add('api', [fails('postgresql', 'down')]);
    await remove();
    expect((await readiness.report()).ready).toBe(true);
  });

  it('waits, when an app stops, for its check still running, so its client is not closed under it', async () => {
    const readiness = new Readiness({ timeoutMs: 20 });
    let finish: () => void = () => undefined;
    let finished = false;
    const remove = readiness.add('ingest', [
      {
        dependency: 'kafka',
        check: () =>
          new Promise<void>((resolve) => {
            finish = () => {
              finished = true;
              resolve();
            };
          }),
      },
    ]);
    // The probe gives up at the timeout; the check itself is still running after it.
    expect((await readiness.report()).ready).toBe(false);
    setTimeout(() => finish(), 5);
    await remove();
    expect(finished).toBe(true);
  });

  it('waits no longer than the timeout for a check that never ends', async () => {
    const readiness = new Readiness({ timeoutMs: 30 });
    const remove = readiness.add('api', [hangs('elasticsearch')]);
    await readiness.report();
    const started = Date.now();
    await remove();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('keeps a reason to one line, without the credentials of a URL', async () => {
    const readiness = new Readiness();
    readiness.add('ingest', [
      fails('schema-registry', 'fetch http://svc:s3cret@registry:8081/config failed\n  at stack'),
    ]);
    const [failure] = (await readiness.report()).failing;
    expect(failure.reason).toBe('fetch http://[redacted]@registry:8081/config failed');
    expect(failure.reason).not.toContain('s3cret');
  });
});
