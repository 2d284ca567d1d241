import type { Kafka, Producer, ProducerConfig } from 'kafkajs';

/** What a kafkajs cluster offers to find a coordinator: the part this module replaces. */
export interface CoordinatorLookup {
  findGroupCoordinator(request: { groupId: string; coordinatorType?: number }): Promise<object>;
}

/** A coordinator broker as kafkajs hands it out: only its connection state is read here. */
interface CoordinatorBroker {
  isConnected?: () => boolean;
}

/**
 * The broker's answers that say the coordinator is elsewhere or not ready: the next request
 * must find it again. Other refusals (CONCURRENT_TRANSACTIONS, a fenced epoch) come from the
 * right coordinator.
 */
const MOVED_COORDINATOR_ERRORS = new Set([
  'NOT_COORDINATOR',
  'COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_LOAD_IN_PROGRESS',
]);

/** Whether a failed request may have gone to the wrong broker: a move, or no answer at all. */
function mayHaveMoved(error: unknown): boolean {
  const type = (error as { type?: unknown } | null)?.type;
  return typeof type !== 'string' || MOVED_COORDINATOR_ERRORS.has(type);
}

/**
 * Keeps each coordinator a cluster has found (by group or transactional id and coordinator
 * type) until a request to it fails in a way that says it moved (or without a broker's answer)
 * or its connection drops; the next lookup then asks the cluster again. kafkajs itself looks
 * the transaction coordinator up before every request of a transaction and the group
 * coordinator before every transactional offset commit: four FindCoordinator round trips per
 * transaction beside the five the transaction needs. The Java client keeps its coordinators
 * the same way.
 */
export function cacheCoordinators(cluster: CoordinatorLookup): void {
  const lookUp = cluster.findGroupCoordinator.bind(cluster);
  const found = new Map<string, object>();
  cluster.findGroupCoordinator = async (request) => {
    const key = `${request.coordinatorType ?? 0}:${request.groupId}`;
    const known = found.get(key) as CoordinatorBroker | undefined;
    if (known && known.isConnected?.() !== false) return known;
    found.delete(key);
    const broker = await lookUp(request);
    const kept = forgettingOnFailure(broker, () => {
      if (found.get(key) === kept) found.delete(key);
    });
    found.set(key, kept);
    return kept;
  };
}

/** The broker, with every request that fails as if the coordinator moved calling `forget`. */
function forgettingOnFailure<T extends object>(broker: T, forget: () => void): T {
  return new Proxy(broker, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = Reflect.apply(value, target, args);
        if (result instanceof Promise) {
          return result.catch((error: unknown) => {
            if (mayHaveMoved(error)) forget();
            throw error;
          });
        }
        return result;
      };
    },
  });
}

const CREATE_CLUSTER = 'private:Kafka:createCluster';

/**
 * A kafkajs producer whose coordinators are cached (`cacheCoordinators`). kafkajs builds a
 * producer's cluster through a private factory of the client; the factory is wrapped for the
 * one synchronous `producer()` call. A kafkajs without that factory gives a plain producer.
 */
export function createCoordinatorCachingProducer(kafka: Kafka, config: ProducerConfig): Producer {
  const client = kafka as unknown as Record<symbol, unknown>;
  const key = Object.getOwnPropertySymbols(kafka).find((s) => s.description === CREATE_CLUSTER);
  const factory = key ? client[key] : undefined;
  if (!key || typeof factory !== 'function') return kafka.producer(config);
  client[key] = (...args: unknown[]): unknown => {
    const cluster = Reflect.apply(factory, kafka, args) as CoordinatorLookup;
    cacheCoordinators(cluster);
    return cluster;
  };
  try {
    return kafka.producer(config);
  } finally {
    client[key] = factory;
  }
}
