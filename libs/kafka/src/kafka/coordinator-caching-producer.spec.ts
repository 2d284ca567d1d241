import { cacheCoordinators, type CoordinatorLookup } from './coordinator-caching-producer';

/** A coordinator broker: answers requests until told to fail, connected until told not to be. */
class FakeBroker {
  connected = true;
  /** The error its requests fail with, a broker's (with a type) or the connection's (without). */
  failing: Error | null = null;
  constructor(readonly nodeId: number) {}
  isConnected(): boolean {
    return this.connected;
  }
  async endTxn(): Promise<string> {
    await Promise.resolve();
    if (this.failing) throw this.failing;
    return `ended by ${this.nodeId}`;
  }
}

function brokerError(type: string): Error {
  return Object.assign(new Error(type), { type });
}

/** A cluster that hands out a new broker per lookup and counts the lookups. */
function countingCluster() {
  const lookups: string[] = [];
  let next = 0;
  const cluster: CoordinatorLookup = {
    findGroupCoordinator: async ({ groupId, coordinatorType }) => {
      await Promise.resolve();
      lookups.push(`${coordinatorType ?? 0}:${groupId}`);
      next += 1;
      return new FakeBroker(next);
    },
  };
  cacheCoordinators(cluster);
  return { cluster, lookups };
}

const find = (cluster: CoordinatorLookup, groupId: string, coordinatorType?: number) =>
  cluster.findGroupCoordinator({ groupId, coordinatorType }) as Promise<FakeBroker>;

describe('cacheCoordinators', () => {
  it('looks each coordinator up once while it answers', async () => {
    const { cluster, lookups } = countingCluster();
    const first = await find(cluster, 'txn-a', 1);
    await first.endTxn();
    const again = await find(cluster, 'txn-a', 1);
    expect(await again.endTxn()).toBe('ended by 1');
    expect(lookups).toEqual(['1:txn-a']);
  });

  it('keeps coordinators apart by id and by coordinator type', async () => {
    const { cluster, lookups } = countingCluster();
    await find(cluster, 'group', 0);
    await find(cluster, 'group');
    await find(cluster, 'group', 1);
    await find(cluster, 'other', 0);
    expect(lookups).toEqual(['0:group', '1:group', '0:other']);
  });

  it.each(['NOT_COORDINATOR', 'COORDINATOR_NOT_AVAILABLE', 'COORDINATOR_LOAD_IN_PROGRESS'])(
    'asks the cluster again after the coordinator answered %s, and passes the error on',
    async (type) => {
      const { cluster, lookups } = countingCluster();
      const broker = await find(cluster, 'txn-a', 1);
      broker.failing = brokerError(type);
      await expect(broker.endTxn()).rejects.toThrow(type);
      const fresh = await find(cluster, 'txn-a', 1);
      expect(await fresh.endTxn()).toBe('ended by 2');
      expect(lookups).toEqual(['1:txn-a', '1:txn-a']);
    },
  );

  it('asks the cluster again after a request got no answer from the broker', async () => {
    const { cluster, lookups } = countingCluster();
    const broker = await find(cluster, 'txn-a', 1);
    broker.failing = new Error('Connection error: read ECONNRESET');
    await expect(broker.endTxn()).rejects.toThrow('ECONNRESET');
    await find(cluster, 'txn-a', 1);
    expect(lookups).toHaveLength(2);
  });

  it.each(['CONCURRENT_TRANSACTIONS', 'INVALID_PRODUCER_EPOCH'])(
    'keeps the coordinator that answered %s: the refusal came from the right broker',
    async (type) => {
      const { cluster, lookups } = countingCluster();
      const broker = await find(cluster, 'txn-a', 1);
      broker.failing = brokerError(type);
      await expect(broker.endTxn()).rejects.toThrow(type);
      expect(await find(cluster, 'txn-a', 1)).toBe(broker);
      expect(lookups).toHaveLength(1);
    },
  );

  it('does not let a late failure of a forgotten coordinator drop its successor', async () => {
    const { cluster, lookups } = countingCluster();
    const old = await find(cluster, 'txn-a', 1);
    old.connected = false;
    const successor = await find(cluster, 'txn-a', 1);
    old.failing = brokerError('NOT_COORDINATOR');
    await expect(old.endTxn()).rejects.toThrow('NOT_COORDINATOR');
    expect(await find(cluster, 'txn-a', 1)).toBe(successor);
    expect(lookups).toEqual(['1:txn-a', '1:txn-a']);
  });

  it('asks the cluster again once the coordinator’s connection dropped', async () => {
    const { cluster, lookups } = countingCluster();
    const broker = await find(cluster, 'txn-a', 1);
    broker.connected = false;
    const fresh = await find(cluster, 'txn-a', 1);
    expect(fresh.nodeId).toBe(2);
    expect(lookups).toHaveLength(2);
  });

  it('passes plain properties and synchronous answers through', async () => {
    const { cluster } = countingCluster();
    const broker = await find(cluster, 'txn-a', 1);
    expect(broker.nodeId).toBe(1);
    expect(broker.isConnected()).toBe(true);
  });
});
