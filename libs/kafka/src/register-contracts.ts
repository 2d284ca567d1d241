import { detectionEventSchema, investigationSchema } from '@vigil/contracts';
import type { ContractCodec } from './port/contract-codec';
import type { TopicCatalog } from './port/topic-catalog';

/** Registers the Avro schemas of the connector-facing topics (idempotent). */
export async function registerContracts(codec: ContractCodec, topics: TopicCatalog): Promise<void> {
  await codec.register(topics.detectionEvents, detectionEventSchema);
  await codec.register(topics.investigations, investigationSchema);
}
