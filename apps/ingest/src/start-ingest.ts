import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import {
  ApiAuthModule,
  TOKEN_RATE_LIMITER,
  TokenRateLimitGuard,
  createTokenRateLimiter,
  rateLimitStoreFor,
  tokenPrincipalOf,
  type TokenRateLimiter,
} from '@vigil/auth';
import {
  createLogger,
  loadConfig,
  trustProxySetting,
  type Logger,
  type RunningApp,
} from '@vigil/config';
import {
  createApiTokenService,
  databaseReadiness,
  openSqlClient,
  runMigrations,
  type ApiTokenService,
} from '@vigil/control-plane';
import {
  ApiExceptionFilter,
  BODY_PARSERS,
  ReadBodyInterceptor,
  markUnreadableTargets,
  observeHttpRequests,
  refuseUnreadableTarget,
  requestIdMiddleware,
  requireContentType,
} from '@vigil/http';
import { openAppMessageLog, type ContractRecordPublisher } from '@vigil/kafka';
import { AppOps, type AppStartOptions } from '@vigil/ops';
import { IngestController } from './ingest.controller';
import { IngestOpenApiController } from './ingest-openapi.controller';
import { CONTRACT_PUBLISHER } from './contract-publisher.token';
import { INGEST_LIMITS } from './ingest-limits.token';
import { INGEST_INSTRUMENTS } from './ingest-instruments.token';

interface IngestDependencies {
  publisher: ContractRecordPublisher;
  tokenService: ApiTokenService;
  rateLimiter: TokenRateLimiter;
  maxBodyBytes: number;
  maxRecords: number;
  logger: Logger;
  ops: AppOps;
}

@Module({})
class IngestModule {
  static register(deps: IngestDependencies): DynamicModule {
    return {
      module: IngestModule,
      imports: [ApiAuthModule.forRoot(deps.tokenService)],
      controllers: [IngestController, IngestOpenApiController],
      providers: [
        { provide: CONTRACT_PUBLISHER, useValue: deps.publisher },
        { provide: INGEST_LIMITS, useValue: { maxRecords: deps.maxRecords } },
        { provide: TOKEN_RATE_LIMITER, useValue: deps.rateLimiter },
        TokenRateLimitGuard,
        {
          provide: BODY_PARSERS,
          useValue: [
            express.json({ limit: deps.maxBodyBytes, type: 'application/json' }),
            express.text({ limit: deps.maxBodyBytes, type: 'application/x-ndjson' }),
          ],
        },
        ReadBodyInterceptor,
        { provide: INGEST_INSTRUMENTS, useValue: deps.ops.ingest() },
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
  for (const handler of observeHttpRequests(deps.ops, tokenPrincipalOf)) app.use(handler);
  app.use(refuseUnreadableTarget);
  markUnreadableTargets(app.getHttpServer());
  app.use(requireContentType('application/json', 'application/x-ndjson'));
  app.useGlobalFilters(new ApiExceptionFilter(deps.logger));
  app.disable('x-powered-by');
  return app;
}

/** The ingest app: validated batches over HTTP in, Avro records on the log out. */
export async function startIngest(
  env: NodeJS.ProcessEnv = process.env,
  options: AppStartOptions = {},
): Promise<RunningApp> {
  const config = loadConfig(['runtime', 'kafka', 'ingest', 'database', 'ops'], env);
  const logger = createLogger('ingest', config.runtime.LOG_LEVEL);
  const ops = AppOps.create('ingest', config.ops, logger, options.ops);
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
  ops.dependsOn([...log.readinessChecks(), databaseReadiness(sql)]);

  const app = await createIngestApp({
    publisher,
    tokenService: createApiTokenService(sql, { logger }),
    rateLimiter: createTokenRateLimiter({
      name: 'ingest',
      pointsPerMinute: config.ingest.INGEST_RATE_LIMIT_PER_MINUTE,
      store: rateLimitStoreFor(sql),
    }),
    maxBodyBytes: config.ingest.INGEST_MAX_BODY_BYTES,
    maxRecords: config.ingest.INGEST_MAX_RECORDS,
    logger,
    ops,
  });
  // Behind a reverse proxy, the client's address (request logs, limits) comes from X-Forwarded-For.
  app.set('trust proxy', trustProxySetting(config.ingest.TRUST_PROXY));
  await app.listen(config.ingest.INGEST_PORT, config.ingest.INGEST_HOST);
  const opsUrl = await ops.start();
  logger.info(
    `ingest listening on http://${config.ingest.INGEST_HOST}:${config.ingest.INGEST_PORT}`,
  );
  return {
    url: (await app.getUrl()).replace('[::1]', '127.0.0.1'),
    opsUrl,
    stop: async () => {
      await ops.stop();
      await app.close();
      await publisher.disconnect();
      await log.close();
      await sql.close();
    },
  };
}
