import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { ApiAuthModule } from '@vigil/auth';
import { createLogger, loadConfig, type Logger, type RunningApp } from '@vigil/config';
import {
  createApiTokenService,
  openSqlClient,
  runMigrations,
  SqlNotificationSettingsStore,
  type ApiTokenService,
  type NotificationSettingsStore,
} from '@vigil/control-plane';
import { ApiExceptionFilter, requestIdMiddleware, requireContentType } from '@vigil/http';
import { openEventReadModel, type EventReadModel } from '@vigil/search';
import { ApiModule } from './api.module';

export interface ApiDependencies {
  readModel: EventReadModel;
  tokenService: ApiTokenService;
  settingsStore: NotificationSettingsStore;
  appUrl: string;
  rateLimitPerMinute: number;
  maxBodyBytes: number;
  logger: Logger;
}

/** Builds the HTTP application around its dependencies; tests use it with their own. */
export async function createApiApp(deps: ApiDependencies): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    ApiModule.register(deps, ApiAuthModule.forRoot(deps.tokenService)),
    { bodyParser: false, logger: ['error', 'warn'] },
  );
  app.use(requestIdMiddleware);
  app.use(requireContentType('application/json'));
  app.use(express.json({ limit: deps.maxBodyBytes, type: 'application/json' }));
  app.useGlobalFilters(new ApiExceptionFilter(deps.logger));
  app.disable('x-powered-by');
  return app;
}

export async function startApi(env: NodeJS.ProcessEnv = process.env): Promise<RunningApp> {
  const config = loadConfig(['runtime', 'api', 'elasticsearch', 'database', 'links'], env);
  const logger = createLogger('api', config.runtime.LOG_LEVEL);
  const sql = await openSqlClient({
    databaseUrl: config.database.DATABASE_URL,
    poolSize: config.database.DATABASE_POOL_SIZE,
    dataDir: config.database.VIGIL_DATA_DIR,
    logger,
    applicationName: 'vigil-api',
  });
  await runMigrations(sql);
  const readModel = await openEventReadModel({
    elasticsearchUrl: config.elasticsearch.ELASTICSEARCH_URL,
    indexPrefix: config.elasticsearch.VIGIL_INDEX_PREFIX,
    sql,
  });
  const app = await createApiApp({
    readModel: readModel.value,
    tokenService: createApiTokenService(sql, { logger }),
    settingsStore: new SqlNotificationSettingsStore(sql),
    appUrl: config.links.APP_URL,
    rateLimitPerMinute: config.api.API_RATE_LIMIT_PER_MINUTE,
    maxBodyBytes: config.api.API_MAX_BODY_BYTES,
    logger,
  });
  await app.listen(config.api.API_PORT, config.api.API_HOST);
  logger.info(`api listening on http://${config.api.API_HOST}:${config.api.API_PORT}`);
  return {
    url: (await app.getUrl()).replace('[::1]', '127.0.0.1'),
    stop: async () => {
      await app.close();
      await readModel.close();
      await sql.close();
    },
  };
}
