import { z } from 'zod';
import { ConfigError } from './config-error';
import { decodeKeyText } from './decode-key-text';
import { parseTrustProxy, type TrustProxy } from './trust-proxy';

type Env = Record<string, string | undefined>;

const DURATION_UNITS_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `24h`, `90m`, `0s`, `0`… in milliseconds (the format is checked before). */
function durationMs(text: string): number {
  if (/^\s*0\s*$/.test(text)) return 0;
  const [, amount, unit] = /^\s*(\d+)\s*(ms|s|m|h|d)\s*$/.exec(text)!;
  return Number(amount) * DURATION_UNITS_MS[unit as keyof typeof DURATION_UNITS_MS];
}

function isKeyText(text: string): boolean {
  return decodeKeyText(text) !== null;
}

// 0 asks the OS for a free port (tests use it).
const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const url = z.url();
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const csv = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string()).min(1));
const duration = z
  .string()
  .regex(/^\s*(0|\d+\s*(ms|s|m|h|d))\s*$/, 'a duration such as 24h, 90m or 0s')
  .transform(durationMs);
// Who the client is behind a reverse proxy: false, a hop count, or the proxies' addresses.
const trustProxy = z
  .string()
  .default('false')
  .transform((text, ctx): TrustProxy => {
    const parsed = parseTrustProxy(text);
    if (typeof parsed === 'object' && 'problem' in parsed) {
      ctx.addIssue({ code: 'custom', message: parsed.problem });
      return z.NEVER;
    }
    return parsed;
  })
  .describe(
    "Whose X-Forwarded-For gives the client's address (request logs, rate limits, sign-in " +
      "throttling): `false` the connection itself, a hop count (`1`), or the proxies' addresses " +
      'and CIDR ranges (`10.0.0.0/8,loopback`); `true` is refused. Set it behind a reverse proxy.',
  );
const onOff = z.enum(['on', 'off']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
// Where the embedded adapters keep their data (DESIGN.md §8): the in-process log, PGlite and
// the SQL read model, each used only when its server's variable is not set.
const dataDir = z
  .string()
  .min(1)
  .default('.vigil/data')
  .describe(
    'Folder of the embedded mode: the in-process log, embedded PostgreSQL (PGlite), the SQL ' +
      'read models and the generated secrets key, each used while its server is not configured. ' +
      'One process holds it at a time.',
  );
const appUrl = url
  .default('http://127.0.0.1:3002')
  .describe(
    'The web application as people reach it: the base of the links in notifications, emails and ' +
      'API answers, and of the single sign-on redirect. Set it to the public HTTPS address.',
  );
const smtp = {
  port: port.default(1025).describe('Port of the SMTP server.'),
  secure: bool
    .default(false)
    .describe(
      '`true` speaks TLS from the first byte (port 465); `false` upgrades with STARTTLS when the server offers it.',
    ),
  user: z.string().min(1).optional().describe('SMTP login, when the server wants one.'),
  password: z
    .string()
    .min(1)
    .optional()
    .describe('SMTP password of SMTP_USER. A secret: never logged.'),
  from: z
    .string()
    .min(3)
    .default('Vigil <notifications@vigil.local>')
    .describe('Sender of every email, as `Name <address>` or an address.'),
};
const hostOf = (app: string) =>
  z
    .string()
    .default('127.0.0.1')
    .describe(`Address the ${app} listens on; \`0.0.0.0\` in a container (the image sets it).`);
const portOf = (app: string, fallback: number) =>
  port.default(fallback).describe(`Port of the ${app}; \`0\` takes any free port.`);

/**
 * Each section names the environment variables it reads; a section is validated only when an
 * app asks for it, so an app never fails on a variable it does not use. Every variable's schema
 * ends with `.describe(meaning)`: docs/configuration.md is generated from it (npm run docs:config).
 */
const sections = {
  runtime: {
    NODE_ENV: z
      .enum(['development', 'test', 'production'])
      .default('development')
      .describe(
        '`production` makes a secrets key mandatory even without DATABASE_URL; the image sets it.',
      ),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info')
      .describe('The least level of the JSON log lines written to stdout.'),
  },
  kafka: {
    KAFKA_BROKERS: csv
      .optional()
      .describe(
        'Kafka bootstrap brokers, `host:port` comma-separated. Unset, the in-process log in ' +
          'VIGIL_DATA_DIR stands in for Kafka (the embedded mode).',
      ),
    KAFKA_CLIENT_ID: z
      .string()
      .min(1)
      .default('vigil')
      .describe("Start of each Kafka client id; the app's name is appended (`vigil-ingest`)."),
    SCHEMA_REGISTRY_URL: url
      .optional()
      .describe(
        'The Confluent-compatible schema registry of the Avro record schemas; required with KAFKA_BROKERS.',
      ),
    VIGIL_DATA_DIR: dataDir,
    VIGIL_TOPIC_PREFIX: z
      .string()
      .regex(/^[a-zA-Z0-9._-]*$/, 'letters, digits, dot, dash and underscore only')
      .default('')
      .describe('Put before every topic name, so that several deployments can share a cluster.'),
    VIGIL_TOPIC_PARTITIONS: positiveInt
      .default(6)
      .describe(
        'Partitions of each topic, applied when the apps create it and fixed after: at least the ' +
          'most stream-processor or indexer instances you will run (docs/deployment.md, sizing).',
      ),
    VIGIL_TOPIC_REPLICATION_FACTOR: positiveInt
      .default(1)
      .describe('Replicas of each topic the apps create; 3 on a cluster of three brokers or more.'),
  },
  elasticsearch: {
    ELASTICSEARCH_URL: url
      .optional()
      .describe(
        'Elasticsearch for the read models (events, detections, investigations). Unset, the read ' +
          'models live in the SQL database (embedded or DATABASE_URL).',
      ),
    VIGIL_INDEX_PREFIX: z
      .string()
      .regex(/^[a-z0-9._-]*$/, 'lowercase letters, digits, dot, dash and underscore only')
      .default('vigil-')
      .describe('Put before every index name, so that several deployments can share a cluster.'),
  },
  database: {
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'a postgres:// connection URL')
      .optional()
      .describe(
        'PostgreSQL of the control plane (tokens, users, settings, deliveries, audit log), with ' +
          'its password: a secret. Unset, embedded PostgreSQL (PGlite) in VIGIL_DATA_DIR.',
      ),
    VIGIL_DATA_DIR: dataDir,
    DATABASE_POOL_SIZE: positiveInt
      .default(10)
      .describe('PostgreSQL connections each app process opens at most.'),
  },
  api: {
    API_PORT: portOf('query API', 3000),
    API_HOST: hostOf('query API'),
    API_RATE_LIMIT_PER_MINUTE: positiveInt
      .default(600)
      .describe(
        'Query API requests per token per minute, counted in PostgreSQL so that every instance ' +
          'shares the budget; beyond it, 429 with Retry-After.',
      ),
    API_MAX_BODY_BYTES: positiveInt
      .default(64 * 1024)
      .describe('Largest query request body; a larger one is answered 413.'),
    TRUST_PROXY: trustProxy,
  },
  ingest: {
    INGEST_PORT: portOf('ingest API', 3001),
    INGEST_HOST: hostOf('ingest API'),
    INGEST_MAX_BODY_BYTES: positiveInt
      .default(5 * 1024 * 1024)
      .describe('Largest ingest request body; a larger one is answered 413.'),
    INGEST_MAX_RECORDS: positiveInt
      .default(10_000)
      .describe('Most records in one ingest request; more are answered 413.'),
    // Requests, not records: a request is counted from its headers, before its body is read.
    INGEST_RATE_LIMIT_PER_MINUTE: positiveInt
      .default(600)
      .describe(
        'Ingest requests (not records) per token per minute, shared by every instance; each ' +
          'request holds up to INGEST_MAX_RECORDS.',
      ),
    TRUST_PROXY: trustProxy,
  },
  web: {
    WEB_PORT: portOf('web application', 3002),
    WEB_HOST: hostOf('web application'),
    APP_URL: appUrl,
    SESSION_SECURE_COOKIES: bool
      .default(false)
      .describe(
        'Secure `__Host-` cookies and HSTS: set `true` when the web application is served over HTTPS.',
      ),
    TRUST_PROXY: trustProxy,
    PASSWORD_SIGN_IN: onOff
      .default('on')
      .describe(
        '`off` leaves single sign-on as the only way in (needs OIDC_ISSUER_URL); the CLI can ' +
          'still reset a password.',
      ),
  },
  // Single sign-on with OpenID Connect (authorization code + PKCE), off unless the issuer is set.
  oidc: {
    OIDC_ISSUER_URL: url
      .optional()
      .describe(
        'Issuer of the OpenID Connect provider for single sign-on (https; plain http only on ' +
          'loopback). Set with OIDC_CLIENT_ID and OIDC_CLIENT_SECRET; unset, no single sign-on.',
      ),
    OIDC_CLIENT_ID: z
      .string()
      .min(1)
      .optional()
      .describe('Client id of Vigil at the identity provider.'),
    OIDC_CLIENT_SECRET: z
      .string()
      .min(1)
      .optional()
      .describe('Client secret of Vigil at the identity provider; never logged nor audited.'),
    OIDC_REDIRECT_URL: url
      .optional()
      .describe(
        'Redirect URI registered with the provider; unset, `<APP_URL>/sign-in/oidc/callback`.',
      ),
    OIDC_DISPLAY_NAME: z
      .string()
      .min(1)
      .max(60)
      .default('single sign-on')
      .describe("The provider's name on the sign-in page's button."),
    OIDC_JIT_ROLE: z
      .enum(['none', 'member', 'admin'])
      .default('none')
      .describe(
        'Role of a user created at their first sign-on; `none` signs on existing users only.',
      ),
    OIDC_ALLOWED_DOMAINS: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim().toLowerCase().replace(/^@/, ''))
          .filter(Boolean),
      )
      .describe(
        'Email domains, comma-separated, whose people may be created at their first sign-on; ' +
          'required when OIDC_JIT_ROLE creates users.',
      ),
  },
  links: {
    APP_URL: appUrl,
    BASE_URL: url
      .default('http://127.0.0.1:3000')
      .describe('The query API as clients reach it. Checked at start, but no answer uses it yet.'),
  },
  // The first workspace admin, created on first start when no user exists yet. The password is
  // checked by the user rules, so a refusal never echoes it.
  initialAdmin: {
    VIGIL_ADMIN_EMAIL: z
      .email()
      .optional()
      .describe(
        'Email of the first workspace admin, created at a start that finds no user (`npm start`: ' +
          '`admin@vigil.local`).',
      ),
    VIGIL_ADMIN_PASSWORD: z
      .string()
      .optional()
      .describe(
        "The first admin's password, held to the password rules; only read while no user exists " +
          '(`npm start` generates one in `.vigil/admin-password`). A secret.',
      ),
    VIGIL_ADMIN_NAME: z
      .string()
      .min(1)
      .max(100)
      .default('Workspace admin')
      .describe("The first admin's display name."),
  },
  // The key that encrypts webhook signing secrets at rest (AES-256-GCM). Without either, the
  // embedded mode generates <VIGIL_DATA_DIR>/secrets.key; with DATABASE_URL or in production a
  // key is required, since every instance must share it.
  secrets: {
    VIGIL_SECRETS_KEY: z
      .string()
      .refine(isKeyText, 'must be 32 bytes in base64 (44 characters) or hex (64 characters)')
      .optional()
      .describe(
        "The key that encrypts webhook secrets and providers' credentials at rest: 32 bytes in base64 or " +
          'hex (`openssl rand -base64 32`), the same for every instance. Required with DATABASE_URL ' +
          'or in production; the embedded mode generates one.',
      ),
    VIGIL_SECRETS_KEY_FILE: z
      .string()
      .min(1)
      .optional()
      .describe(
        'A file holding VIGIL_SECRETS_KEY, readable by its owner only (mode 0600); set one of the two.',
      ),
    WEBHOOK_SECRET_OVERLAP: duration
      .prefault('24h')
      .describe(
        'How long a rotated-out webhook secret still signs beside the new one, so that receivers ' +
          'switch without a failed delivery.',
      ),
  },
  audit: {
    AUDIT_RETENTION_DAYS: positiveInt
      .max(36_500)
      .default(365)
      .describe(
        'Days an audit event is kept; the notifier purges older ones daily, and the audit log page says so.',
      ),
  },
  // Account emails of the web application (invitations, password resets), through the SMTP
  // server of the notifier's variables.
  accountMail: {
    SMTP_HOST: z
      .string()
      .min(1)
      .optional()
      .describe(
        'SMTP server of the notifier; the web application sends invitations and password resets ' +
          'through it only when it is set, and otherwise shows such links to the admin.',
      ),
    SMTP_PORT: smtp.port,
    SMTP_SECURE: smtp.secure,
    SMTP_USER: smtp.user,
    SMTP_PASSWORD: smtp.password,
    SMTP_FROM: smtp.from,
  },
  // The local webhook receiver and mail catcher of the all-in-one process (127.0.0.1 only).
  demoInbox: {
    DEMO_INBOX_PORT: port
      .default(3003)
      .describe("Port of the all-in-one process's local inbox (webhook receiver and mail viewer)."),
    DEMO_SMTP_PORT: port
      .default(1025)
      .describe("SMTP port of the all-in-one process's mail catcher, which the notifier sends to."),
    DEMO_INBOX_CAPACITY: positiveInt
      .default(200)
      .describe('Webhooks and emails the local inbox keeps in memory, newest first.'),
  },
  // The ops listener of every app (/metrics, /livez, /readyz), apart from its public port.
  ops: {
    OPS_PORT: port
      .optional()
      .describe(
        "Port of the app's ops listener (`/metrics`, `/livez`, `/readyz`). Unset, the app's own: " +
          'api 9400, ingest 9401, web 9402, stream-processor 9403, indexer 9404, notifier 9405, ' +
          'all-in-one 9400; `0` takes any free port.',
      ),
    OPS_HOST: z
      .string()
      .min(1)
      .default('127.0.0.1')
      .describe(
        'Address of the ops listener; `0.0.0.0` in a container so that Prometheus reaches it.',
      ),
    VIGIL_METRICS: z
      .enum(['on', 'off'])
      .default('on')
      .describe('`off` stops updating the metrics (the overhead benchmarks compare both).'),
    OPS_LOOP_STALL_MS: positiveInt
      .default(60_000)
      .describe(
        'A consumer loop that has neither fetched nor finished a step for this long makes `/livez` answer 503.',
      ),
    OPS_STEP_MAX_MS: positiveInt
      .default(300_000)
      .describe(
        'One step (a batch, a transaction) still running after this long makes `/livez` answer 503.',
      ),
  },
  processor: {
    PROCESSOR_DEDUP_WINDOW: positiveInt
      .default(10_000)
      .describe(
        "Distinct event ids remembered per detection to drop a connector's resends; memory grows " +
          'by about 22 bytes per id (docs/deployment.md, sizing).',
      ),
    PROCESSOR_TIMER_INTERVAL_MS: positiveInt
      .default(1_000)
      .describe('How often due timers (snooze ends, settings changes) are evaluated.'),
    PROCESSOR_PARTITION_CONCURRENCY: positiveInt
      .default(6)
      .describe('Partitions one stream processor works on at once.'),
  },
  notifier: {
    APP_URL: appUrl,
    SMTP_HOST: z
      .string()
      .min(1)
      .default('127.0.0.1')
      .describe('SMTP server the notifier sends email through (the all-in-one: its mail catcher).'),
    SMTP_PORT: smtp.port,
    SMTP_SECURE: smtp.secure,
    SMTP_USER: smtp.user,
    SMTP_PASSWORD: smtp.password,
    SMTP_FROM: smtp.from,
    // A send waiting on a slow endpoint costs only a socket, so this is sized for many bad
    // endpoints at once.
    NOTIFIER_CONCURRENCY: positiveInt
      .default(64)
      .describe('Deliveries sent at once by one notifier, across all targets.'),
    // A target that answers fast grows towards the maximum; one that fails or crawls falls to
    // one slot, so endpoints that time out never hold the whole pool.
    NOTIFIER_CONCURRENCY_PER_TARGET: positiveInt
      .default(4)
      .describe(
        'Deliveries in flight to one webhook provider or email recipient at first; each fast ' +
          'answer adds one up to NOTIFIER_CONCURRENCY_PER_TARGET_MAX, a failure or a slow answer ' +
          '(over a tenth of the timeout) halves it.',
      ),
    NOTIFIER_CONCURRENCY_PER_TARGET_MAX: positiveInt
      .optional()
      .describe('Most deliveries in flight to one target; unset, half of NOTIFIER_CONCURRENCY.'),
    NOTIFIER_RETRY_SCHEDULE: z
      .string()
      .regex(/^\s*\d+(ms|s|m|h|d)\s*(,\s*\d+(ms|s|m|h|d)\s*)*$/, 'delays such as 5s,5m,30m,2h')
      .default('5s,5m,30m,2h,5h,10h,10h')
      .describe(
        'Delays before each retry of a failed delivery (DESIGN.md §5); after the last one the ' +
          'delivery is dead.',
      ),
    NOTIFIER_WEBHOOK_TIMEOUT_MS: positiveInt
      .default(10_000)
      .describe('How long one webhook attempt waits for an answer before it counts as a timeout.'),
    NOTIFIER_DIGEST_GRACE_MS: z.coerce
      .number()
      .int()
      .min(0)
      .default(10_000)
      .describe(
        'How long after a batch window ends its digest is sent, for late entries to arrive.',
      ),
    NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: bool
      .default(false)
      .describe(
        '`true` lets webhooks go to loopback and private addresses; prefer listing the few you ' +
          'need in NOTIFIER_WEBHOOK_TARGET_ALLOWLIST.',
      ),
    NOTIFIER_DISABLE_AFTER_FAILING_FOR: duration
      .prefault('72h')
      .describe(
        'A webhook provider whose every attempt has failed for this long is disabled (admins are ' +
          'emailed and shown a banner; enabling offers to recover); `0` turns this rule off.',
      ),
    NOTIFIER_DISABLE_AFTER_DEAD_IN_A_ROW: z.coerce
      .number()
      .int()
      .min(0)
      .default(20)
      .describe(
        'A webhook provider with this many dead deliveries in a row is disabled; `0` turns this rule off.',
      ),
    NOTIFIER_WEBHOOK_TARGET_ALLOWLIST: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .describe(
        'Host names, CIDR ranges and `ip:port` pairs, comma-separated, that webhooks may reach ' +
          'though not public.',
      ),
  },
} as const;

export type ConfigSection = keyof typeof sections;

/** One variable of one section, as the configuration reference documents it. */
export interface ConfigVariable {
  section: ConfigSection;
  variable: string;
  schema: z.ZodType;
}

/** Every variable of every section, in the order they are declared. */
export function configVariables(): ConfigVariable[] {
  return (Object.keys(sections) as ConfigSection[]).flatMap((section) =>
    Object.entries(sections[section] as Record<string, z.ZodType>).map(([variable, schema]) => ({
      section,
      variable,
      schema,
    })),
  );
}

/** Where each app's ops listener listens when OPS_PORT is not set. */
export const DEFAULT_OPS_PORTS = {
  api: 9400,
  ingest: 9401,
  web: 9402,
  'stream-processor': 9403,
  indexer: 9404,
  notifier: 9405,
  'all-in-one': 9400,
} as const;

export type OpsAppName = keyof typeof DEFAULT_OPS_PORTS;

/** Rules between variables of one section; each returns the problems it finds. */
const sectionRules: Partial<Record<ConfigSection, (env: Env) => string[]>> = {
  kafka: (env) =>
    env.KAFKA_BROKERS && !env.SCHEMA_REGISTRY_URL
      ? ['SCHEMA_REGISTRY_URL is required when KAFKA_BROKERS is set']
      : [],
  secrets: (env) =>
    env.VIGIL_SECRETS_KEY && env.VIGIL_SECRETS_KEY_FILE
      ? ['Set one of VIGIL_SECRETS_KEY and VIGIL_SECRETS_KEY_FILE, not both']
      : [],
  web: (env) =>
    env.PASSWORD_SIGN_IN === 'off' && !env.OIDC_ISSUER_URL
      ? [
          'PASSWORD_SIGN_IN=off needs single sign-on: set OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (the CLI can still reset a password)',
        ]
      : [],
  oidc: (env) => {
    const problems: string[] = [];
    const client = ['OIDC_ISSUER_URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'];
    const set = client.filter((name) => env[name]);
    if (set.length > 0 && set.length < client.length) {
      const missing = client.filter((name) => !env[name]);
      problems.push(`${missing.join(' and ')} must be set with ${set.join(' and ')}`);
    }
    const issuer = env.OIDC_ISSUER_URL ? URL.parse(env.OIDC_ISSUER_URL) : null;
    if (issuer?.protocol === 'http:' && !LOOPBACK_HOSTS.has(issuer.hostname)) {
      problems.push('OIDC_ISSUER_URL must be https:// (plain http only for a loopback address)');
    }
    const jit = env.OIDC_JIT_ROLE ?? 'none';
    if (jit !== 'none' && jit !== '' && !env.OIDC_ALLOWED_DOMAINS?.trim()) {
      problems.push(
        'OIDC_ALLOWED_DOMAINS is required when OIDC_JIT_ROLE creates users: list the email domains whose people may join',
      );
    }
    if (set.length === 0 && (jit === 'member' || jit === 'admin')) {
      problems.push('OIDC_JIT_ROLE needs OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
    }
    return problems;
  },
  notifier: (env) => {
    const [initial, max] = [
      Number(env.NOTIFIER_CONCURRENCY_PER_TARGET || 4),
      Number(env.NOTIFIER_CONCURRENCY_PER_TARGET_MAX || Infinity),
    ];
    return max < initial
      ? ['NOTIFIER_CONCURRENCY_PER_TARGET_MAX must be at least NOTIFIER_CONCURRENCY_PER_TARGET']
      : [];
  },
};
/** Variables whose values are secrets: a refusal names them but never echoes the value. */
const HIDDEN_VALUES = new Set([
  'VIGIL_SECRETS_KEY',
  'SMTP_PASSWORD',
  'VIGIL_ADMIN_PASSWORD',
  'OIDC_CLIENT_SECRET',
]);

type SectionShape<S extends ConfigSection> = (typeof sections)[S];
export type SectionValues<S extends ConfigSection> = {
  [K in keyof SectionShape<S>]: z.output<SectionShape<S>[K]>;
};
export type ConfigOf<S extends ConfigSection> = { [K in S]: SectionValues<K> };

/**
 * Validates the named sections of the environment once, at start-up. Every problem is reported
 * at once, each naming its variable, so an operator fixes the whole environment in one pass.
 */
export function loadConfig<S extends ConfigSection>(
  names: readonly S[],
  env: Env = process.env,
): ConfigOf<S> {
  const problems: string[] = [];
  const result: Record<string, Record<string, unknown>> = {};
  for (const name of names) {
    const shape = sections[name] as Record<string, z.ZodType>;
    const values: Record<string, unknown> = {};
    for (const [variable, schema] of Object.entries(shape)) {
      const raw = env[variable];
      const parsed = schema.safeParse(raw === '' ? undefined : raw);
      if (parsed.success) {
        values[variable] = parsed.data;
      } else if (raw === undefined || raw === '') {
        problems.push(`${variable} is required but not set`);
      } else {
        const reason = parsed.error.issues.map((i) => i.message).join('; ');
        const shown = HIDDEN_VALUES.has(variable) ? ' (value hidden)' : `=${JSON.stringify(raw)}`;
        problems.push(`${variable}${shown} is invalid: ${reason}`);
      }
    }
    problems.push(...(sectionRules[name]?.(env) ?? []));
    result[name] = values;
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return result as ConfigOf<S>;
}
