import { type Kafka, Partitioners, type Producer } from 'kafkajs';
import { createCoordinatorCachingProducer } from './coordinator-caching-producer';

/** A producer for one partition's read-process-write transactions under `transactionalId`. */
export function createTransactionalProducer(kafka: Kafka, transactionalId: string): Producer {
  return createCoordinatorCachingProducer(kafka, {
    transactionalId,
    idempotent: true,
    maxInFlightRequests: 1,
    // Murmur2, as the other producers: commands of a key always share a partition.
    createPartitioner: Partitioners.DefaultPartitioner,
    // CONCURRENT_TRANSACTIONS (the previous commit's markers still being written) clears
    // in a millisecond or two; a first retry of 20 ms, let alone the client's default
    // 300 ms, made the slowest hundredth of transactions.
    retry: { initialRetryTime: 5, retries: 14, maxRetryTime: 5_000 },
  });
}
