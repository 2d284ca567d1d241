import type { RecordedAttempt } from '@vigil/control-plane';
import { AttemptRecorder } from './attempt-recorder';

const attempt = (id: string): RecordedAttempt => ({
  id,
  attempt: { attemptedAt: new Date(0), statusCode: 204, latencyMs: 3, error: null },
  result: { status: 'delivered' },
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('AttemptRecorder', () => {
  it('writes an attempt at once when nothing is being written', async () => {
    const writes: string[][] = [];
    const recorder = new AttemptRecorder(async (records) => {
      writes.push(records.map((r) => r.id));
      return new Set(records.map((r) => r.id));
    });
    await expect(recorder.record(attempt('a'))).resolves.toBe(true);
    expect(writes).toEqual([['a']]);
  });

  it('gathers the attempts that arrive during a write into the next one', async () => {
    const writes: string[][] = [];
    const gates = [deferred<void>(), deferred<void>()];
    const recorder = new AttemptRecorder(async (records) => {
      const n = writes.push(records.map((r) => r.id));
      await gates[n - 1].promise;
      return new Set(records.map((r) => r.id));
    });
    const first = recorder.record(attempt('a'));
    const others = ['b', 'c', 'd'].map((id) => recorder.record(attempt(id)));
    gates[0].resolve();
    await first;
    gates[1].resolve();
    await Promise.all(others);
    expect(writes).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('answers false for an attempt whose lease was lost, true for the others', async () => {
    const recorder = new AttemptRecorder(async () => new Set(['a']));
    await expect(
      Promise.all([recorder.record(attempt('a')), recorder.record(attempt('b'))]),
    ).resolves.toEqual([true, false]);
  });

  it('matches ids whatever their case, as the database returns uuids in lower case', async () => {
    const recorder = new AttemptRecorder(
      async (records) => new Set(records.map((r) => r.id.toLowerCase())),
    );
    await expect(recorder.record(attempt('ABC'))).resolves.toBe(true);
  });

  it('fails every attempt of a failed write and goes on with the next', async () => {
    let calls = 0;
    const gate = deferred<void>();
    const recorder = new AttemptRecorder(async (records) => {
      calls += 1;
      if (calls === 1) {
        await gate.promise;
        throw new Error('connection lost');
      }
      return new Set(records.map((r) => r.id));
    });
    const first = recorder.record(attempt('a'));
    const second = recorder.record(attempt('b'));
    gate.resolve();
    await expect(first).rejects.toThrow('connection lost');
    await expect(second).resolves.toBe(true);
  });

  it('splits a backlog into writes of at most the given size', async () => {
    const sizes: number[] = [];
    const gate = deferred<void>();
    const recorder = new AttemptRecorder(async (records) => {
      sizes.push(records.length);
      if (sizes.length === 1) await gate.promise;
      return new Set(records.map((r) => r.id));
    }, 2);
    const all = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => recorder.record(attempt(id)));
    gate.resolve();
    await Promise.all(all);
    expect(sizes).toEqual([1, 2, 2, 1]);
  });
});
