import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import {
  ApiTokenAccess,
  SpeculativeReads,
  createTokenRateLimiter,
  rateLimitStoreFor,
  tokenPrincipalOf,
} from '@vigil/auth';
import { createLogger, loadConfig, trustProxySetting, type RunningApp } from '@vigil/config';
import {
  createApiTokenService,
  databaseReadiness,
  openSqlClient,
  runMigrations,
  SqlNotificationSettingsStore,
} from '@vigil/control-plane';
import {
  ApiExceptionFilter,
  answerBeforeFramework,
  markUnreadableTargets,
  observeHttpRequests,
  refuseUnreadableTarget,
  requestIdMiddleware,
  requireContentType,
} from '@vigil/http';
import { AppOps, type AppStartOptions } from '@vigil/ops';
import { openEventReadModel } from '@vigil/search';
import type { ApiDependencies } from './api-dependencies';
import { ApiModule } from './api.module';
import { queryRoutes } from './query-routes';
import { serveQueryRoutes } from './serve-query-routes';

/** Builds the HTTP application around its dependencies; tests use it with their own. */
export async function createApiApp(deps: ApiDependencies): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(ApiModule, {
    bodyParser: false,
    logger: ['error', 'warn'],
  });
  const observe = [requestIdMiddleware, ...observeHttpRequests(deps.ops, tokenPrincipalOf)];
  const readBody = [
    requireContentType('application/json'),
    express.json({ limit: deps.maxBodyBytes, type: 'application/json' }),
  ];
  // The query endpoints are answered before Express (serveQueryRoutes); the rest of the API (the
  // OpenAPI document, and the 404 of any other path) goes through the same middleware in Express.
  for (const handler of [...observe, refuseUnreadableTarget, ...readBody]) app.use(handler);
  answerBeforeFramework(
    app.getHttpServer(),
    serveQueryRoutes({
      routes: queryRoutes(deps),
      observe,
      readBody,
      access: new ApiTokenAccess(deps.tokenService, deps.rateLimiter, {
        scope: 'detection',
        level: 'read',
      }),
      reads: new SpeculativeReads(),
      queries: deps.ops.queries(),
      logger: deps.logger,
    }),
  );
  // Installed last, so it runs first: the front and Express both see a readable URL.
  markUnreadableTargets(app.getHttpServer());
  app.useGlobalFilters(new ApiExceptionFilter(deps.logger));
  app.disable('x-powered-by');
  return app;
}

export async function startApi(
  env: NodeJS.ProcessEnv = process.env,
  options: AppStartOptions = {},
): Promise<RunningApp> {
  const config = loadConfig(['runtime', 'api', 'elasticsearch', 'database', 'links', 'ops'], env);
  const logger = createLogger('api', config.runtime.LOG_LEVEL);
  const ops = AppOps.create('api', config.ops, logger, options.ops);
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
  ops.dependsOn([databaseReadiness(sql), ...readModel.readinessChecks]);
  const app = await createApiApp({
    readModel: readModel.value,
    tokenService: createApiTokenService(sql, { logger }),
    settingsStore: new SqlNotificationSettingsStore(sql),
    appUrl: config.links.APP_URL,
    rateLimiter: createTokenRateLimiter({
      name: 'api',
      pointsPerMinute: config.api.API_RATE_LIMIT_PER_MINUTE,
      store: rateLimitStoreFor(sql),
    }),
    maxBodyBytes: config.api.API_MAX_BODY_BYTES,
    logger,
    ops,
  });
  // Behind a reverse proxy, the client's address (request logs, limits) comes from X-Forwarded-For.
  app.set('trust proxy', trustProxySetting(config.api.TRUST_PROXY));
  await app.listen(config.api.API_PORT, config.api.API_HOST);
  const opsUrl = await ops.start();
  logger.info(`api listening on http://${config.api.API_HOST}:${config.api.API_PORT}`);
  return {
    url: (await app.getUrl()).replace('[::1]', '127.0.0.1'),
    opsUrl,
    stop: async () => {
      await ops.stop();
      await app.close();
      await readModel.close();
      await sql.close();
    },
  };
}
