import { detectionEventSchema, investigationSchema } from '@vigil/contracts';
import type { AvroCodec } from './avro-codec';
import type { TopicCatalog } from './topic-catalog';

/** Registers the Avro schemas of the connector-facing topics (idempotent). */
export async function registerContracts(codec: AvroCodec, topics: TopicCatalog): Promise<void> {
  await codec.register(topics.detectionEvents, detectionEventSchema);
  await codec.register(topics.investigations, investigationSchema);
}
