import { join } from 'node:path';
import type { Logger, SectionValues } from '@vigil/config';
import { createMessageLog } from './create-message-log';
import type { MessageLog } from './port/message-log';
import { TopicCatalog } from './port/topic-catalog';
import { registerContracts } from './register-contracts';

export interface AppMessageLog {
  log: MessageLog;
  topics: TopicCatalog;
}

/**
 * What every app on the log does first: open Kafka (KAFKA_BROKERS set) or the in-process log
 * of VIGIL_DATA_DIR, create the topics and register the contracts' schemas.
 */
export async function openAppMessageLog(
  config: SectionValues<'kafka'>,
  app: string,
  logger: Logger,
): Promise<AppMessageLog> {
  const log = createMessageLog({
    brokers: config.KAFKA_BROKERS,
    schemaRegistryUrl: config.SCHEMA_REGISTRY_URL,
    clientId: `${config.KAFKA_CLIENT_ID}-${app}`,
    dataDir: join(config.VIGIL_DATA_DIR, 'log'),
    logger,
  });
  const topics = new TopicCatalog(config.VIGIL_TOPIC_PREFIX, config.VIGIL_TOPIC_PARTITIONS);
  try {
    await log.ensureTopics(topics.all(), config.VIGIL_TOPIC_REPLICATION_FACTOR);
    await registerContracts(log.codec, topics);
  } catch (error) {
    await log.close();
    throw error;
  }
  return { log, topics };
}
