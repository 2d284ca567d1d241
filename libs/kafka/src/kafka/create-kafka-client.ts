import { Kafka, logLevel, type LogEntry, type logCreator } from 'kafkajs';
import type { Logger } from '@vigil/config';
import { stopRequestQueueSpin } from './stop-request-queue-spin';
import { TransientErrorTally, transientKafkaError } from './transient-kafka-errors';

export interface KafkaSettings {
  brokers: string[];
  clientId: string;
}

/**
 * Routes kafkajs logs through our structured logger instead of its own console output. Transient
 * broker errors that kafkajs retries are counted and logged once per interval at warn.
 */
function pinoLogCreator(logger: Logger): logCreator {
  const tally = new TransientErrorTally(logger);
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, ...rest } = log;
      const fields = { ...rest, namespace: undefined };
      if (level === logLevel.ERROR || level === logLevel.WARN) {
        const transient = transientKafkaError(log);
        if (transient !== null) return tally.add(transient);
      }
      if (level === logLevel.ERROR) logger.error(fields, message);
      else if (level === logLevel.WARN) logger.warn(fields, message);
      else if (level === logLevel.INFO) logger.debug(fields, message);
    };
}

export function createKafkaClient(settings: KafkaSettings, logger: Logger): Kafka {
  stopRequestQueueSpin();
  return new Kafka({
    clientId: settings.clientId,
    brokers: settings.brokers,
    logLevel: logLevel.WARN,
    logCreator: pinoLogCreator(logger),
    retry: { initialRetryTime: 300, retries: 10, maxRetryTime: 30_000 },
  });
}
