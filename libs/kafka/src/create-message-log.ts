import type { Logger } from '@vigil/config';
import { createKafkaClient } from './kafka/create-kafka-client';
import { KafkaMessageLog } from './kafka/kafka-message-log';
import type { MessageLog } from './port/message-log';
import { openInProcessLog, type InProcessLogOptions } from './in-process/open-in-process-log';

export interface MessageLogSettings {
  /** Kafka bootstrap servers; when empty or absent, the in-process log of `dataDir`. */
  brokers?: readonly string[];
  /** Required with brokers. */
  schemaRegistryUrl?: string;
  clientId: string;
  /** Folder of the in-process log (ignored with brokers). */
  dataDir: string;
  logger: Logger;
  inProcess?: InProcessLogOptions;
}

/** Kafka when brokers are configured, otherwise the embedded in-process log (DESIGN.md §8). */
export function createMessageLog(settings: MessageLogSettings): MessageLog {
  const { brokers, schemaRegistryUrl, clientId, dataDir, logger } = settings;
  if (brokers && brokers.length > 0) {
    if (!schemaRegistryUrl) throw new Error('SCHEMA_REGISTRY_URL is required with KAFKA_BROKERS');
    return new KafkaMessageLog(
      createKafkaClient({ brokers: [...brokers], clientId }, logger),
      schemaRegistryUrl,
    );
  }
  return openInProcessLog(dataDir, logger, settings.inProcess);
}
