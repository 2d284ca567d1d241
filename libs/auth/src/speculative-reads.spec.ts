import { SpeculativeReads } from './speculative-reads';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

/** A request whose authorization is held until released, recording when its read starts. */
function heldRequest(token: string | undefined, read: () => Promise<string> = async () => 'page') {
  const authorization = deferred();
  const events: string[] = [];
  return {
    authorization,
    events,
    request: {
      token,
      authorize: () => {
        events.push('authorize');
        return authorization.promise;
      },
      read: () => {
        events.push('read');
        return read();
      },
    },
  };
}

async function authorizeOnce(reads: SpeculativeReads, token: string) {
  await reads.run({ token, authorize: async () => undefined, read: async () => 'page' });
}

describe('SpeculativeReads', () => {
  it('reads only after authorization for a token it has not seen pass', async () => {
    const reads = new SpeculativeReads();
    const { authorization, events, request } = heldRequest('tok-new');
    const result = reads.run(request);
    await flush();
    expect(events).toEqual(['authorize']);
    authorization.resolve();
    await expect(result).resolves.toBe('page');
    expect(events).toEqual(['authorize', 'read']);
  });

  it('starts the read alongside authorization once the token has passed', async () => {
    const reads = new SpeculativeReads();
    await authorizeOnce(reads, 'tok-a');
    const { authorization, events, request } = heldRequest('tok-a');
    let settled = false;
    const result = reads.run(request).finally(() => (settled = true));
    await flush();
    expect(events).toEqual(['read', 'authorize']);
    expect(settled).toBe(false);
    authorization.resolve();
    await expect(result).resolves.toBe('page');
  });

  it('answers with the refusal, not the read, when authorization fails', async () => {
    const reads = new SpeculativeReads();
    await authorizeOnce(reads, 'tok-a');
    const { authorization, events, request } = heldRequest('tok-a');
    const result = reads.run(request);
    authorization.reject(new Error('invalid_token'));
    await expect(result).rejects.toThrow('invalid_token');
    expect(events).toEqual(['read', 'authorize']);
  });

  it('prefers the refusal over a failed read and leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const reads = new SpeculativeReads();
      await authorizeOnce(reads, 'tok-a');
      const { authorization, request } = heldRequest('tok-a', () =>
        Promise.reject(new Error('invalid_query')),
      );
      const result = reads.run(request);
      await flush();
      authorization.reject(new Error('token_expired'));
      await expect(result).rejects.toThrow('token_expired');
      await flush();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it("answers with the read's error once authorized", async () => {
    const reads = new SpeculativeReads();
    await authorizeOnce(reads, 'tok-a');
    const { authorization, request } = heldRequest('tok-a', () =>
      Promise.reject(new Error('invalid_query')),
    );
    const result = reads.run(request);
    authorization.resolve();
    await expect(result).rejects.toThrow('invalid_query');
  });

  it('goes back to reading after authorization once a token is refused', async () => {
    const reads = new SpeculativeReads();
    await authorizeOnce(reads, 'tok-a');
    const refused = heldRequest('tok-a');
    refused.authorization.reject(new Error('invalid_token'));
    await expect(reads.run(refused.request)).rejects.toThrow('invalid_token');

    const next = heldRequest('tok-a');
    const result = reads.run(next.request);
    await flush();
    expect(next.events).toEqual(['authorize']);
    next.authorization.reject(new Error('invalid_token'));
    await expect(result).rejects.toThrow('invalid_token');
    expect(next.events).toEqual(['authorize']);
  });

  it('never speculates without a token', async () => {
    const reads = new SpeculativeReads();
    await authorizeOnce(reads, 'tok-a');
    const { authorization, events, request } = heldRequest(undefined);
    const result = reads.run(request);
    await flush();
    expect(events).toEqual(['authorize']);
    authorization.reject(new Error('missing_token'));
    await expect(result).rejects.toThrow('missing_token');
    expect(events).toEqual(['authorize']);
  });

  it('forgets a token after the time to live', async () => {
    let now = 0;
    const reads = new SpeculativeReads({ ttlMs: 1_000, clock: () => now });
    await authorizeOnce(reads, 'tok-a');
    now = 1_000;
    const { authorization, events, request } = heldRequest('tok-a');
    const result = reads.run(request);
    await flush();
    expect(events).toEqual(['authorize']);
    authorization.resolve();
    await result;
  });

  it('remembers at most its capacity, forgetting the token authorized longest ago', async () => {
    const reads = new SpeculativeReads({ capacity: 2 });
    await authorizeOnce(reads, 'tok-a');
    await authorizeOnce(reads, 'tok-b');
    await authorizeOnce(reads, 'tok-a');
    await authorizeOnce(reads, 'tok-c');
    expect(reads.size).toBe(2);

    const b = heldRequest('tok-b');
    const bResult = reads.run(b.request);
    const a = heldRequest('tok-a');
    const aResult = reads.run(a.request);
    await flush();
    expect(b.events).toEqual(['authorize']);
    expect(a.events).toEqual(['read', 'authorize']);
    b.authorization.resolve();
    a.authorization.resolve();
    await Promise.all([aResult, bResult]);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new SpeculativeReads({ capacity: 0 })).toThrow(RangeError);
  });
});
