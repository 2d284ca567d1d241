import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { ConfigError, createLogger, loadConfig, type Logger, type RunningApp } from '@vigil/config';
import {
  DeliveryService,
  UserError,
  createApiTokenService,
  openSqlClient,
  createSessionService,
  createUserService,
  runMigrations,
  SqlNotificationSettingsStore,
  WebhookProviderService,
  type UserService,
} from '@vigil/control-plane';
import { requestIdMiddleware } from '@vigil/http';
import { openEventReadModel, type EventReadModel, type Opened } from '@vigil/search';
import { SendTestEvent } from './integrations/send-test-event';
import { CookiePolicy } from './security/cookie-policy';
import { SignInThrottle } from './security/sign-in-throttle';
import { WebExceptionFilter } from './web-exception.filter';
import { WebModule, type WebDependencies } from './web.module';

/** Builds the HTTP application around its dependencies; tests use it with their own. */
export async function createWebApp(
  deps: WebDependencies,
  logger: Logger,
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(WebModule.register(deps), {
    bodyParser: false,
    logger: ['error', 'warn'],
  });
  const secure = deps.cookies.secure;
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'none'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          baseUri: ["'none'"],
          objectSrc: ["'none'"],
          ...(secure ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      strictTransportSecurity: secure ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      referrerPolicy: { policy: 'same-origin' },
    }),
  );
  app.use(requestIdMiddleware);
  app.use((req: Request, res: Response, next: NextFunction) => {
    // Pages show account data and, once, token values: never cache them.
    if (!req.path.startsWith('/assets/')) res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(cookieParser());
  app.use(express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 100 }));
  app.useGlobalFilters(new WebExceptionFilter(logger));
  app.disable('x-powered-by');
  return app;
}

/** Creates the first workspace admin from the environment when there is no user yet. */
async function ensureInitialAdmin(
  users: UserService,
  admin: { VIGIL_ADMIN_EMAIL?: string; VIGIL_ADMIN_PASSWORD?: string; VIGIL_ADMIN_NAME: string },
  logger: Logger,
): Promise<void> {
  const { VIGIL_ADMIN_EMAIL: email, VIGIL_ADMIN_PASSWORD: password } = admin;
  if (email === undefined && password === undefined) return;
  if (email === undefined || password === undefined) {
    throw new ConfigError(['VIGIL_ADMIN_EMAIL and VIGIL_ADMIN_PASSWORD must be set together']);
  }
  try {
    const created = await users.ensureInitialAdmin({
      email,
      password,
      name: admin.VIGIL_ADMIN_NAME,
    });
    if (created !== null)
      logger.info({ email: created.email }, 'created the first workspace admin');
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    // Name the variable, never echo the password.
    const variable: Readonly<Record<string, string>> = {
      email: 'VIGIL_ADMIN_EMAIL',
      name: 'VIGIL_ADMIN_NAME',
      password: 'VIGIL_ADMIN_PASSWORD',
    };
    throw new ConfigError(error.details.map((d) => `${variable[d.field] ?? d.field} ${d.message}`));
  }
}

/** The web application: sign-in, and the Settings area (API keys for workspace admins). */
export async function startWeb(env: NodeJS.ProcessEnv = process.env): Promise<RunningApp> {
  // The notifier's section holds the webhook target policy: enrollment here and sending there
  // must refuse and allow the same URLs, so both read the same variables.
  const config = loadConfig(
    ['runtime', 'web', 'database', 'initialAdmin', 'elasticsearch', 'notifier'],
    env,
  );
  const webhookTargets = {
    allowPrivate: config.notifier.NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS,
    allowlist: config.notifier.NOTIFIER_WEBHOOK_TARGET_ALLOWLIST,
  };
  const logger = createLogger('web', config.runtime.LOG_LEVEL);
  const sql = await openSqlClient({
    databaseUrl: config.database.DATABASE_URL,
    poolSize: config.database.DATABASE_POOL_SIZE,
    dataDir: config.database.VIGIL_DATA_DIR,
    logger,
    applicationName: 'vigil-web',
  });
  let readModel: Opened<EventReadModel> | null = null;
  try {
    await runMigrations(sql, { logger });
    readModel = await openEventReadModel({
      elasticsearchUrl: config.elasticsearch.ELASTICSEARCH_URL,
      indexPrefix: config.elasticsearch.VIGIL_INDEX_PREFIX,
      sql,
    });
    const reads = readModel;
    const users = createUserService(sql, { logger });
    await ensureInitialAdmin(users, config.initialAdmin, logger);
    const tokens = createApiTokenService(sql, { logger });
    const app = await createWebApp(
      {
        users,
        sessions: createSessionService(sql, { logger }),
        tokens,
        cookies: new CookiePolicy(config.web.SESSION_SECURE_COOKIES),
        throttle: new SignInThrottle(),
        origin: new URL(config.web.APP_URL).origin,
        readModel: reads.value,
        notificationSettings: new SqlNotificationSettingsStore(sql),
        webhookProviders: new WebhookProviderService(sql, { logger, policy: webhookTargets }),
        deliveries: new DeliveryService(sql),
        testEvents: new SendTestEvent(sql, config.web.APP_URL),
      },
      logger,
    );
    await app.listen(config.web.WEB_PORT, config.web.WEB_HOST);
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    logger.info(`web listening on ${url}`);
    return {
      url,
      stop: async () => {
        await app.close();
        await tokens.drain();
        await reads.close();
        await sql.close();
      },
    };
  } catch (error) {
    await readModel?.close();
    await sql.close();
    throw error;
  }
}
