import type { ApiTokenRecord } from './api-token';
import type { ApiTokenStore, NewApiToken, StoredApiToken } from './api-token-store';
import { CoalescingApiTokenStore } from './coalescing-api-token-store';

/** A store (our own port) whose batch lookups answer when the test says. */
class HeldStore implements ApiTokenStore {
  readonly batches: string[][] = [];
  readonly pending: { answer: () => void; fail: (error: Error) => void }[] = [];
  readonly known = new Map<string, StoredApiToken>();

  async insert(_token: NewApiToken): Promise<ApiTokenRecord> {
    throw new Error('not used');
  }
  async listLive(): Promise<ApiTokenRecord[]> {
    return [];
  }
  async markDeleted(): Promise<boolean> {
    return false;
  }
  async touchLastUsed(): Promise<boolean> {
    return false;
  }
  async findLiveByHash(): Promise<StoredApiToken | null> {
    throw new Error('the coalescing store asks for batches only');
  }
  findLiveByHashes(hashes: readonly Buffer[]): Promise<(StoredApiToken | null)[]> {
    const keys = hashes.map((hash) => hash.toString());
    this.batches.push(keys);
    return new Promise((resolve, reject) => {
      this.pending.push({
        // Read when answered, as a database reads when the query runs.
        answer: () => resolve(keys.map((key) => this.known.get(key) ?? null)),
        fail: reject,
      });
    });
  }
}

const tokenOf = (name: string) => ({ id: name, name }) as unknown as StoredApiToken;
const hash = (key: string) => Buffer.from(key);
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('CoalescingApiTokenStore', () => {
  it('looks up the hashes asked in the same turn in one batch, each answered with its own', async () => {
    const held = new HeldStore();
    held.known.set('a', tokenOf('a'));
    held.known.set('c', tokenOf('c'));
    const store = new CoalescingApiTokenStore(held);
    const answers = Promise.all(['a', 'b', 'c'].map((key) => store.findLiveByHash(hash(key))));
    await turn();
    expect(held.batches).toEqual([['a', 'b', 'c']]);
    held.pending[0].answer();
    expect((await answers).map((token) => token?.id ?? null)).toEqual(['a', null, 'c']);
  });

  it('asks a hash once per round trip however many requests present it', async () => {
    const held = new HeldStore();
    held.known.set('a', tokenOf('a'));
    const store = new CoalescingApiTokenStore(held);
    const keys = ['a', 'b', 'a', 'a', 'b', 'c'];
    const answers = Promise.all(keys.map((key) => store.findLiveByHash(hash(key))));
    await turn();
    expect(held.batches).toEqual([['a', 'b', 'c']]);
    held.pending[0].answer();
    expect((await answers).map((token) => token?.id ?? null)).toEqual([
      'a',
      null,
      'a',
      'a',
      null,
      null,
    ]);
  });

  it('tells hashes apart by every byte, not by a text form of them', async () => {
    const held = new HeldStore();
    const store = new CoalescingApiTokenStore(held);
    // Not valid UTF-8: decoded as UTF-8 both would read as one replacement character.
    const first = Buffer.from([0xff]);
    const second = Buffer.from([0xfe]);
    const answers = Promise.all([store.findLiveByHash(first), store.findLiveByHash(second)]);
    await turn();
    expect(held.batches[0]).toHaveLength(2);
    held.pending[0].answer();
    await answers;
  });

  it('lets lookups asked during a round trip join the next one, started after it answers', async () => {
    const held = new HeldStore();
    const store = new CoalescingApiTokenStore(held);
    const first = store.findLiveByHash(hash('a'));
    await turn();
    const second = store.findLiveByHash(hash('b'));
    const third = store.findLiveByHash(hash('c'));
    await turn();
    expect(held.batches).toEqual([['a']]);
    held.pending[0].answer();
    await first;
    await turn();
    expect(held.batches).toEqual([['a'], ['b', 'c']]);
    // A token created (or deleted) before the second round trip runs is seen by it.
    held.known.set('c', tokenOf('c'));
    held.pending[1].answer();
    expect(await second).toBeNull();
    expect((await third)?.id).toBe('c');
  });

  it('fails every lookup of a failed round trip, and goes on with the next', async () => {
    const held = new HeldStore();
    const store = new CoalescingApiTokenStore(held);
    const failed = [store.findLiveByHash(hash('a')), store.findLiveByHash(hash('b'))];
    await turn();
    held.pending[0].fail(new Error('database went away'));
    for (const lookup of failed) await expect(lookup).rejects.toThrow('database went away');
    const next = store.findLiveByHash(hash('a'));
    await turn();
    held.pending[1].answer();
    await expect(next).resolves.toBeNull();
  });
});
