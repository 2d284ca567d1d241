import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { ApiAuthModule } from '@vigil/auth';
import { createLogger, loadConfig, type Logger, type RunningApp } from '@vigil/config';
import {
  createApiTokenService,
  openSqlClient,
  runMigrations,
  type ApiTokenService,
} from '@vigil/control-plane';
import { ApiExceptionFilter, requestIdMiddleware, requireContentType } from '@vigil/http';
import { openAppMessageLog, type ContractRecordPublisher } from '@vigil/kafka';
import { IngestController } from './ingest.controller';
import { CONTRACT_PUBLISHER, INGEST_LIMITS } from './ingest-limits';

interface IngestDependencies {
  publisher: ContractRecordPublisher;
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
        { provide: CONTRACT_PUBLISHER, useValue: deps.publisher },
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

/** The ingest app: validated batches over HTTP in, Avro records on the log out. */
export async function startIngest(env: NodeJS.ProcessEnv = process.env): Promise<RunningApp> {
  const config = loadConfig(['runtime', 'kafka', 'ingest', 'database'], env);
  const logger = createLogger('ingest', config.runtime.LOG_LEVEL);
  const { log, topics } = await openAppMessageLog(config.kafka, 'ingest', logger);
  const publisher = log.createContractPublisher(topics);
  await publisher.connect();

  const sql = await openSqlClient({
    databaseUrl: config.database.DATABASE_URL,
    poolSize: config.database.DATABASE_POOL_SIZE,
    dataDir: config.database.VIGIL_DATA_DIR,
    logger,
    applicationName: 'vigil-ingest',
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
      await log.close();
      await sql.close();
    },
  };
}
