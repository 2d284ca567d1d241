import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import {
  ConfigError,
  createLogger,
  loadConfig,
  trustProxySetting,
  type ConfigOf,
  type Logger,
  type RunningApp,
} from '@vigil/config';
import { OpenIdConnectClient, SignInThrottle, rateLimitStoreFor } from '@vigil/auth';
import {
  DeliveryService,
  FallbackDestinationService,
  UserError,
  createApiTokenService,
  databaseReadiness,
  openSqlClient,
  createSessionService,
  createUserService,
  loadSecretBox,
  prepareStoredSecrets,
  runMigrations,
  SqlAuditLog,
  secretsKeySettings,
  SqlNotificationSettingsStore,
  SqlSignInRequestStore,
  WebhookProviderService,
  type UserService,
} from '@vigil/control-plane';
import {
  markUnreadableTargets,
  observeHttpRequests,
  refuseUnreadableTarget,
  requestIdMiddleware,
} from '@vigil/http';
import { AppOps, type AppStartOptions } from '@vigil/ops';
import { openEventReadModel, type EventReadModel, type Opened } from '@vigil/search';
import { SmtpMailer } from './mail/smtp-mailer';
import { CookiePolicy } from './security/cookie-policy';
import { logSafePath } from './security/log-safe-path';
import { signInCounters } from './security/sign-in-counters';
import type { WebRequest } from './security/web-request';
import { RecordOidcConfiguration, type OidcConfigurationSummary } from '@vigil/workspace';
import { WebExceptionFilter } from './web-exception.filter';
import { WebExpressAdapter } from './responses/web-express-adapter';
import { WebModule, type WebDependencies } from './web.module';

/** Builds the HTTP application around its dependencies; tests use it with their own. */
export async function createWebApp(
  deps: WebDependencies,
  logger: Logger,
  ops: AppOps,
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    WebModule.register(deps),
    new WebExpressAdapter(),
    {
      bodyParser: false,
      logger: ['error', 'warn'],
    },
  );
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
          // A form may lead to the identity provider: the single sign-on button's redirect.
          formAction: ["'self'", ...(deps.singleSignOn?.formTargets ?? [])],
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
  const userOf = (req: Request) => {
    const userId = (req as WebRequest).auth?.user.id;
    return userId === undefined ? {} : { userId };
  };
  for (const handler of observeHttpRequests(ops, userOf, logSafePath)) app.use(handler);
  app.use((req: Request, res: Response, next: NextFunction) => {
    // Pages show account data and, once, token values: never cache them.
    if (!req.path.startsWith('/assets/')) res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(refuseUnreadableTarget);
  markUnreadableTargets(app.getHttpServer());
  app.use(cookieParser());
  app.use(express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 100 }));
  app.useGlobalFilters(new WebExceptionFilter(logger));
  app.disable('x-powered-by');
  // Behind a reverse proxy, who the client is (throttles, audit) comes from X-Forwarded-For.
  app.set('trust proxy', trustProxySetting(deps.trustProxy));
  return app;
}

type SignInConfig = ConfigOf<'web' | 'oidc'>;

/** The single sign-on of the environment, or null when OIDC_ISSUER_URL is not set. */
function singleSignOnOf(config: SignInConfig): WebDependencies['singleSignOn'] {
  const { oidc } = config;
  if (!oidc.OIDC_ISSUER_URL || !oidc.OIDC_CLIENT_ID || !oidc.OIDC_CLIENT_SECRET) return null;
  return {
    provider: new OpenIdConnectClient({
      issuerUrl: oidc.OIDC_ISSUER_URL,
      clientId: oidc.OIDC_CLIENT_ID,
      clientSecret: oidc.OIDC_CLIENT_SECRET,
      redirectUrl: redirectUrlOf(config),
    }),
    displayName: oidc.OIDC_DISPLAY_NAME,
    formTargets: [new URL(oidc.OIDC_ISSUER_URL).origin],
    provisioning: {
      role: oidc.OIDC_JIT_ROLE === 'none' ? null : oidc.OIDC_JIT_ROLE,
      allowedDomains: oidc.OIDC_ALLOWED_DOMAINS,
    },
  };
}

function redirectUrlOf({ oidc, web }: SignInConfig): string {
  return oidc.OIDC_REDIRECT_URL ?? new URL('/sign-in/oidc/callback', web.APP_URL).href;
}

/** What the audit log records of the sign-in set-up: never the client secret. */
function oidcSummaryOf(config: SignInConfig): OidcConfigurationSummary {
  const { oidc, web } = config;
  if (!oidc.OIDC_ISSUER_URL) return { enabled: false, passwordSignIn: web.PASSWORD_SIGN_IN };
  return {
    enabled: true,
    issuer: oidc.OIDC_ISSUER_URL,
    clientId: oidc.OIDC_CLIENT_ID,
    redirectUrl: redirectUrlOf(config),
    displayName: oidc.OIDC_DISPLAY_NAME,
    jitRole: oidc.OIDC_JIT_ROLE,
    allowedDomains: oidc.OIDC_ALLOWED_DOMAINS,
    passwordSignIn: web.PASSWORD_SIGN_IN,
  };
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

/** The SMTP server of account emails, when one is configured (SMTP_HOST). */
function accountMailer(mail: ConfigOf<'accountMail'>['accountMail']): SmtpMailer | undefined {
  if (mail.SMTP_HOST === undefined) return undefined;
  return new SmtpMailer({
    host: mail.SMTP_HOST,
    port: mail.SMTP_PORT,
    secure: mail.SMTP_SECURE,
    user: mail.SMTP_USER,
    password: mail.SMTP_PASSWORD,
    from: mail.SMTP_FROM,
  });
}

/** The web application: sign-in, and the Settings area (API keys for workspace admins). */
export async function startWeb(
  env: NodeJS.ProcessEnv = process.env,
  options: AppStartOptions = {},
): Promise<RunningApp> {
  // The notifier's section holds the webhook target policy: enrollment here and sending there
  // must refuse and allow the same URLs, so both read the same variables.
  const config = loadConfig(
    [
      'runtime',
      'web',
      'oidc',
      'database',
      'initialAdmin',
      'elasticsearch',
      'notifier',
      'secrets',
      'audit',
      'accountMail',
      'ops',
    ],
    env,
  );
  const webhookTargets = {
    allowPrivate: config.notifier.NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS,
    allowlist: config.notifier.NOTIFIER_WEBHOOK_TARGET_ALLOWLIST,
  };
  const logger = createLogger('web', config.runtime.LOG_LEVEL);
  // Before anything opens: enrollment and rotation seal secrets with this key, and with
  // DATABASE_URL or in production there is none to generate.
  const secrets = loadSecretBox(secretsKeySettings(config));
  logger.info({ keyId: secrets.box.keyId, source: secrets.source }, 'webhook secrets key loaded');
  const ops = AppOps.create('web', config.ops, logger, options.ops);
  const sql = await openSqlClient({
    databaseUrl: config.database.DATABASE_URL,
    poolSize: config.database.DATABASE_POOL_SIZE,
    dataDir: config.database.VIGIL_DATA_DIR,
    logger,
    applicationName: 'vigil-web',
  });
  let readModel: Opened<EventReadModel> | null = null;
  let mailer: SmtpMailer | undefined;
  try {
    await runMigrations(sql, { logger });
    await prepareStoredSecrets(sql, secrets.box, logger);
    readModel = await openEventReadModel({
      elasticsearchUrl: config.elasticsearch.ELASTICSEARCH_URL,
      indexPrefix: config.elasticsearch.VIGIL_INDEX_PREFIX,
      sql,
    });
    const reads = readModel;
    ops.dependsOn([databaseReadiness(sql), ...reads.readinessChecks]);
    const users = createUserService(sql, { logger });
    await ensureInitialAdmin(users, config.initialAdmin, logger);
    const tokens = createApiTokenService(sql, { logger });
    const webhookProviders = new WebhookProviderService(sql, {
      logger,
      policy: webhookTargets,
      secrets: secrets.box,
      secretOverlapMs: config.secrets.WEBHOOK_SECRET_OVERLAP,
      knownSources: () => reads.value.listSources(),
    });
    const deliveries = new DeliveryService(sql);
    const audit = new SqlAuditLog(sql);
    const singleSignOn = singleSignOnOf(config);
    if (await new RecordOidcConfiguration(audit).execute(oidcSummaryOf(config))) {
      logger.info(oidcSummaryOf(config), 'single sign-on set-up recorded in the audit log');
    }
    mailer = accountMailer(config.accountMail);
    const app = await createWebApp(
      {
        users,
        sessions: createSessionService(sql, { logger }),
        tokens,
        cookies: new CookiePolicy(config.web.SESSION_SECURE_COOKIES),
        throttle: new SignInThrottle(rateLimitStoreFor(sql)),
        trustProxy: config.web.TRUST_PROXY,
        signInLog: logger,
        passwordSignIn: config.web.PASSWORD_SIGN_IN === 'on',
        singleSignOn,
        signInRequests: new SqlSignInRequestStore(sql),
        origin: new URL(config.web.APP_URL).origin,
        appUrl: config.web.APP_URL,
        readModel: reads.value,
        notificationSettings: new SqlNotificationSettingsStore(sql),
        webhookProviders,
        deliveries,
        fallbackDestinations: new FallbackDestinationService(sql),
        signInObserver: signInCounters(ops.signIns()),
        auditLog: audit,
        auditRetentionDays: config.audit.AUDIT_RETENTION_DAYS,
        secretOverlapMs: config.secrets.WEBHOOK_SECRET_OVERLAP,
        mailer,
      },
      logger,
      ops,
    );
    await app.listen(config.web.WEB_PORT, config.web.WEB_HOST);
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const opsUrl = await ops.start();
    logger.info(`web listening on ${url}`);
    return {
      url,
      opsUrl,
      stop: async () => {
        await ops.stop();
        await app.close();
        mailer?.close();
        await tokens.drain();
        await reads.close();
        await sql.close();
      },
    };
  } catch (error) {
    await ops.stop();
    mailer?.close();
    await readModel?.close();
    await sql.close();
    throw error;
  }
}
