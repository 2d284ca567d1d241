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
  });
const onOff = z.enum(['on', 'off']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
// Where the embedded adapters keep their data (DESIGN.md §8): the in-process log, PGlite and
// the SQL read model, each used only when its server's variable is not set.
const dataDir = z.string().min(1).default('.vigil/data');

/**
 * Each section names the environment variables it reads; a section is validated only when an
 * app asks for it, so an app never fails on a variable it does not use.
 */
const sections = {
  runtime: {
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
  },
  // Without KAFKA_BROKERS, the in-process log in VIGIL_DATA_DIR stands in for Kafka.
  kafka: {
    KAFKA_BROKERS: csv.optional(),
    KAFKA_CLIENT_ID: z.string().min(1).default('vigil'),
    SCHEMA_REGISTRY_URL: url.optional(),
    VIGIL_DATA_DIR: dataDir,
    VIGIL_TOPIC_PREFIX: z
      .string()
      .regex(/^[a-zA-Z0-9._-]*$/, 'letters, digits, dot, dash and underscore only')
      .default(''),
    VIGIL_TOPIC_PARTITIONS: positiveInt.default(6),
    VIGIL_TOPIC_REPLICATION_FACTOR: positiveInt.default(1),
  },
  // Without ELASTICSEARCH_URL, the read models live in the SQL database.
  elasticsearch: {
    ELASTICSEARCH_URL: url.optional(),
    VIGIL_INDEX_PREFIX: z
      .string()
      .regex(/^[a-z0-9._-]*$/, 'lowercase letters, digits, dot, dash and underscore only')
      .default('vigil-'),
  },
  // Without DATABASE_URL, embedded PostgreSQL (PGlite) in VIGIL_DATA_DIR.
  database: {
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'a postgres:// connection URL')
      .optional(),
    VIGIL_DATA_DIR: dataDir,
    DATABASE_POOL_SIZE: positiveInt.default(10),
  },
  api: {
    API_PORT: port.default(3000),
    API_HOST: z.string().default('127.0.0.1'),
    API_RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
    API_MAX_BODY_BYTES: positiveInt.default(64 * 1024),
    TRUST_PROXY: trustProxy,
  },
  ingest: {
    INGEST_PORT: port.default(3001),
    INGEST_HOST: z.string().default('127.0.0.1'),
    INGEST_MAX_BODY_BYTES: positiveInt.default(5 * 1024 * 1024),
    INGEST_MAX_RECORDS: positiveInt.default(10_000),
    // Requests, not records: a request is counted from its headers, before its body is read.
    INGEST_RATE_LIMIT_PER_MINUTE: positiveInt.default(600),
    TRUST_PROXY: trustProxy,
  },
  web: {
    WEB_PORT: port.default(3002),
    WEB_HOST: z.string().default('127.0.0.1'),
    APP_URL: url.default('http://127.0.0.1:3002'),
    SESSION_SECURE_COOKIES: bool.default(false),
    TRUST_PROXY: trustProxy,
    // off: single sign-on only (needs OIDC_ISSUER_URL); the CLI still resets passwords.
    PASSWORD_SIGN_IN: onOff.default('on'),
  },
  // Single sign-on with OpenID Connect (authorization code + PKCE), off unless the issuer is set.
  oidc: {
    OIDC_ISSUER_URL: url.optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    // Defaults to <APP_URL>/sign-in/oidc/callback.
    OIDC_REDIRECT_URL: url.optional(),
    OIDC_DISPLAY_NAME: z.string().min(1).max(60).default('single sign-on'),
    // The role of a user created at their first sign-on; none: only existing users sign in.
    OIDC_JIT_ROLE: z.enum(['none', 'member', 'admin']).default('none'),
    // Email domains whose users may be created at their first sign-on.
    OIDC_ALLOWED_DOMAINS: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim().toLowerCase().replace(/^@/, ''))
          .filter(Boolean),
      ),
  },
  links: {
    APP_URL: url.default('http://127.0.0.1:3002'),
    BASE_URL: url.default('http://127.0.0.1:3000'),
  },
  devToken: {
    VIGIL_DEV_TOKEN: z.string().min(16).optional(),
  },
  indexer: {
    INDEXER_BATCH_MAX_BYTES: positiveInt.default(5 * 1024 * 1024),
  },
  // The first workspace admin, created on first start when no user exists yet. The password is
  // checked by the user rules, so a refusal never echoes it.
  initialAdmin: {
    VIGIL_ADMIN_EMAIL: z.email().optional(),
    VIGIL_ADMIN_PASSWORD: z.string().optional(),
    VIGIL_ADMIN_NAME: z.string().min(1).max(100).default('Workspace admin'),
  },
  // The key that encrypts webhook signing secrets at rest (AES-256-GCM): 32 bytes in base64 or
  // hex, given directly or in a file readable by its owner only. Without either, the embedded
  // mode generates <VIGIL_DATA_DIR>/secrets.key; with DATABASE_URL or in production a key is
  // required, since every instance must share it.
  secrets: {
    VIGIL_SECRETS_KEY: z
      .string()
      .refine(isKeyText, 'must be 32 bytes in base64 (44 characters) or hex (64 characters)')
      .optional(),
    VIGIL_SECRETS_KEY_FILE: z.string().min(1).optional(),
    // How long a rotated-out webhook secret still signs, besides the new one.
    WEBHOOK_SECRET_OVERLAP: duration.default(24 * 3_600_000),
  },
  audit: {
    // Audit events older than this are purged (daily, by the notifier).
    AUDIT_RETENTION_DAYS: positiveInt.max(36_500).default(365),
  },
  // Account emails of the web application (invitations, password resets), through the SMTP
  // server of the notifier's variables. Without SMTP_HOST no SMTP server is configured, and the
  // web application shows such links to the admin instead.
  accountMail: {
    SMTP_HOST: z.string().min(1).optional(),
    SMTP_PORT: port.default(1025),
    SMTP_SECURE: bool.default(false),
    SMTP_USER: z.string().min(1).optional(),
    SMTP_PASSWORD: z.string().min(1).optional(),
    SMTP_FROM: z.string().min(3).default('Vigil <notifications@vigil.local>'),
  },
  // The local webhook receiver and mail catcher of the all-in-one process (127.0.0.1 only).
  demoInbox: {
    DEMO_INBOX_PORT: port.default(3003),
    DEMO_SMTP_PORT: port.default(1025),
    // Received webhooks and emails kept in memory, newest first; older ones are dropped.
    DEMO_INBOX_CAPACITY: positiveInt.default(200),
  },
  // The ops listener of every app (/metrics, /livez, /readyz), apart from its public port.
  // Unset OPS_PORT means the app's own default (DEFAULT_OPS_PORTS); 0 asks the OS for one.
  ops: {
    OPS_PORT: port.optional(),
    OPS_HOST: z.string().min(1).default('127.0.0.1'),
    // off stops updating the instruments (the overhead benchmarks compare both).
    VIGIL_METRICS: z.enum(['on', 'off']).default('on'),
    // A consumer loop that has not fetched or finished a step for this long is stuck (/livez).
    OPS_LOOP_STALL_MS: positiveInt.default(60_000),
    // ... and so is one step (a batch, a transaction) still running after this long.
    OPS_STEP_MAX_MS: positiveInt.default(300_000),
  },
  processor: {
    // Distinct event ids remembered per detection to drop connector resends.
    PROCESSOR_DEDUP_WINDOW: positiveInt.default(10_000),
    // How often due timers (snooze ends, settings changes) are evaluated.
    PROCESSOR_TIMER_INTERVAL_MS: positiveInt.default(1_000),
    PROCESSOR_PARTITION_CONCURRENCY: positiveInt.default(6),
  },
  notifier: {
    APP_URL: url.default('http://127.0.0.1:3002'),
    SMTP_HOST: z.string().min(1).default('127.0.0.1'),
    SMTP_PORT: port.default(1025),
    SMTP_SECURE: bool.default(false),
    SMTP_USER: z.string().min(1).optional(),
    SMTP_PASSWORD: z.string().min(1).optional(),
    SMTP_FROM: z.string().min(3).default('Vigil <notifications@vigil.local>'),
    // Deliveries sent at once, across all endpoints. A send waiting on a slow endpoint costs
    // only a socket, so this is sized for many bad endpoints at once.
    NOTIFIER_CONCURRENCY: positiveInt.default(64),
    // Deliveries sent at once to one webhook provider or email recipient: where each starts.
    // A target that answers fast grows towards the maximum (default half of
    // NOTIFIER_CONCURRENCY); one that fails or crawls falls to one slot, so endpoints that time
    // out never hold the whole pool.
    NOTIFIER_CONCURRENCY_PER_TARGET: positiveInt.default(4),
    NOTIFIER_CONCURRENCY_PER_TARGET_MAX: positiveInt.optional(),
    // Delays before each retry of a failed delivery (DESIGN.md §5), e.g. 5s,5m,30m,2h.
    NOTIFIER_RETRY_SCHEDULE: z
      .string()
      .regex(/^\s*\d+(ms|s|m|h|d)\s*(,\s*\d+(ms|s|m|h|d)\s*)*$/, 'delays such as 5s,5m,30m,2h')
      .default('5s,5m,30m,2h,5h,10h,10h'),
    NOTIFIER_WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000),
    // How long after a batch window ends its digest is sent, for late entries to arrive.
    NOTIFIER_DIGEST_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
    NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS: bool.default(false),
    // Endpoint health: a provider is disabled when every attempt to it has failed for this long
    // (0s: never), or when this many of its deliveries in a row died after their last retry
    // (0: never). Admins are emailed and shown a banner; enabling it offers "recover".
    NOTIFIER_DISABLE_AFTER_FAILING_FOR: duration.default(72 * 3_600_000),
    NOTIFIER_DISABLE_AFTER_DEAD_IN_A_ROW: z.coerce.number().int().min(0).default(20),
    // Host names and CIDR ranges allowed as webhook targets even when not public.
    NOTIFIER_WEBHOOK_TARGET_ALLOWLIST: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
  },
} as const;

export type ConfigSection = keyof typeof sections;

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
