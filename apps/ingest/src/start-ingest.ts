import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { ApiAuthModule } from '@vigil/auth';
import { createLogger, loadConfig, type Logger, type RunningApp } from '@vigil/config';
import {
  createApiTokenService,
  createPgSqlClient,
  runMigrations,
  type ApiTokenService,
} from '@vigil/control-plane';
import { ApiExceptionFilter, requestIdMiddleware, requireContentType } from '@vigil/http';
import {
  AvroCodec,
  ContractPublisher,
  TopicCatalog,
  createKafkaClient,
  ensureTopics,
  registerContracts,
} from '@vigil/kafka';
import { IngestController } from './ingest.controller';
import { INGEST_LIMITS } from './ingest-limits';

interface IngestDependencies {
  publisher: ContractPublisher;
  tokenService: ApiTokenService;
  maxBodyBytes: number;
  maxRecords: number;
  logger: Logger;
}

@Module({})
class IngestModule {
  static register(deps: IngestDependencies): DynamicModule {
    return {
      module: IngestModule,
      imports: [ApiAuthModule.forRoot(deps.tokenService)],
      controllers: [IngestController],
      providers: [
        { provide: ContractPublisher, useValue: deps.publisher },
        { provide: INGEST_LIMITS, useValue: { maxRecords: deps.maxRecords } },
      ],
    };
  }
}

async function createIngestApp(deps: IngestDependencies): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(IngestModule.register(deps), {
    bodyParser: false,
    logger: ['error', 'warn'],
  });
  app.use(requestIdMiddleware);
  app.use(requireContentType('application/json', 'application/x-ndjson'));
  app.use(express.json({ limit: deps.maxBodyBytes, type: 'application/json' }));
  app.use(express.text({ limit: deps.maxBodyBytes, type: 'application/x-ndjson' }));
  app.useGlobalFilters(new ApiExceptionFilter(deps.logger));
  app.disable('x-powered-by');
  return app;
}

/** The ingest app: validated batches over HTTP in, Avro records on Kafka out. */
export async function startIngest(env: NodeJS.ProcessEnv = process.env): Promise<RunningApp> {
  const config = loadConfig(['runtime', 'kafka', 'ingest', 'database'], env);
  const logger = createLogger('ingest', config.runtime.LOG_LEVEL);
  const kafka = createKafkaClient(
    { brokers: config.kafka.KAFKA_BROKERS, clientId: `${config.kafka.KAFKA_CLIENT_ID}-ingest` },
    logger,
  );
  const topics = new TopicCatalog(
    config.kafka.VIGIL_TOPIC_PREFIX,
    config.kafka.VIGIL_TOPIC_PARTITIONS,
  );
  const codec = new AvroCodec(config.kafka.SCHEMA_REGISTRY_URL);
  await ensureTopics(kafka, topics.all(), config.kafka.VIGIL_TOPIC_REPLICATION_FACTOR);
  await registerContracts(codec, topics);
  const publisher = new ContractPublisher(kafka, codec, topics);
  await publisher.connect();

  const sql = createPgSqlClient(config.database.DATABASE_URL, config.database.DATABASE_POOL_SIZE, {
    logger,
  });
  await runMigrations(sql);

  const app = await createIngestApp({
    publisher,
    tokenService: createApiTokenService(sql, { logger }),
    maxBodyBytes: config.ingest.INGEST_MAX_BODY_BYTES,
    maxRecords: config.ingest.INGEST_MAX_RECORDS,
    logger,
  });
  await app.listen(config.ingest.INGEST_PORT, config.ingest.INGEST_HOST);
  logger.info(
    `ingest listening on http://${config.ingest.INGEST_HOST}:${config.ingest.INGEST_PORT}`,
  );
  return {
    url: (await app.getUrl()).replace('[::1]', '127.0.0.1'),
    stop: async () => {
      await app.close();
      await publisher.disconnect();
      await sql.close();
    },
  };
}
