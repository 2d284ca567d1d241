import { z } from 'zod';
import { ConfigError } from './config-error';

type Env = Record<string, string | undefined>;

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
  },
  ingest: {
    INGEST_PORT: port.default(3001),
    INGEST_HOST: z.string().default('127.0.0.1'),
    INGEST_MAX_BODY_BYTES: positiveInt.default(5 * 1024 * 1024),
    INGEST_MAX_RECORDS: positiveInt.default(10_000),
  },
  web: {
    WEB_PORT: port.default(3002),
    WEB_HOST: z.string().default('127.0.0.1'),
    APP_URL: url.default('http://127.0.0.1:3002'),
    SESSION_SECURE_COOKIES: bool.default(false),
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
  // The local webhook receiver and mail catcher of the all-in-one process (127.0.0.1 only).
  demoInbox: {
    DEMO_INBOX_PORT: port.default(3003),
    DEMO_SMTP_PORT: port.default(1025),
    // Received webhooks and emails kept in memory, newest first; older ones are dropped.
    DEMO_INBOX_CAPACITY: positiveInt.default(200),
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

/** Rules between variables of one section; each returns the problems it finds. */
const sectionRules: Partial<Record<ConfigSection, (env: Env) => string[]>> = {
  kafka: (env) =>
    env.KAFKA_BROKERS && !env.SCHEMA_REGISTRY_URL
      ? ['SCHEMA_REGISTRY_URL is required when KAFKA_BROKERS is set']
      : [],
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
        problems.push(`${variable}=${JSON.stringify(raw)} is invalid: ${reason}`);
      }
    }
    problems.push(...(sectionRules[name]?.(env) ?? []));
    result[name] = values;
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return result as ConfigOf<S>;
}
