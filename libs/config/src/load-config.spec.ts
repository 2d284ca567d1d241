import { ConfigError } from './config-error';
import { DEFAULT_OPS_PORTS, loadConfig } from './load-config';

describe('loadConfig', () => {
  it('returns typed values with defaults applied', () => {
    const config = loadConfig(['kafka'], {
      KAFKA_BROKERS: '127.0.0.1:9092, 127.0.0.1:9094',
      SCHEMA_REGISTRY_URL: 'http://127.0.0.1:8081/apis/ccompat/v7',
    });
    expect(config.kafka.KAFKA_BROKERS).toEqual(['127.0.0.1:9092', '127.0.0.1:9094']);
    expect(config.kafka.VIGIL_TOPIC_PARTITIONS).toBe(6);
  });

  it('leaves the servers unset for the embedded adapters, with a data folder', () => {
    const config = loadConfig(['kafka', 'database', 'elasticsearch'], {});
    expect(config.kafka.KAFKA_BROKERS).toBeUndefined();
    expect(config.database.DATABASE_URL).toBeUndefined();
    expect(config.elasticsearch.ELASTICSEARCH_URL).toBeUndefined();
    expect(config.kafka.VIGIL_DATA_DIR).toBe('.vigil/data');
  });

  it('names every missing variable', () => {
    expect(() => loadConfig(['kafka'], { KAFKA_BROKERS: '127.0.0.1:9092' })).toThrow(ConfigError);
    try {
      loadConfig(['kafka', 'api'], { KAFKA_BROKERS: '127.0.0.1:9092', API_PORT: 'x' });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'SCHEMA_REGISTRY_URL is required when KAFKA_BROKERS is set',
        'API_PORT="x" is invalid: Invalid input: expected number, received NaN',
      ]);
    }
  });

  it('names a wrong variable, its value and what is wrong', () => {
    expect(() => loadConfig(['api'], { API_PORT: 'eighty' })).toThrow(
      /API_PORT="eighty" is invalid/,
    );
    expect(() => loadConfig(['database'], { DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL="mysql:\/\/x" is invalid: a postgres:\/\/ connection URL/,
    );
  });

  it('refuses a per-target maximum below the per-target start', () => {
    expect(() =>
      loadConfig(['notifier'], {
        NOTIFIER_CONCURRENCY_PER_TARGET: '8',
        NOTIFIER_CONCURRENCY_PER_TARGET_MAX: '4',
      }),
    ).toThrow(
      /NOTIFIER_CONCURRENCY_PER_TARGET_MAX must be at least NOTIFIER_CONCURRENCY_PER_TARGET/,
    );
    expect(
      loadConfig(['notifier'], { NOTIFIER_CONCURRENCY_PER_TARGET_MAX: '16' }).notifier
        .NOTIFIER_CONCURRENCY_PER_TARGET_MAX,
    ).toBe(16);
  });

  it('reads the endpoint health rules: 3 days and 20 by default, 0 turning a rule off', () => {
    expect(loadConfig(['notifier'], {}).notifier).toMatchObject({
      NOTIFIER_DISABLE_AFTER_FAILING_FOR: 72 * 3_600_000,
      NOTIFIER_DISABLE_AFTER_DEAD_IN_A_ROW: 20,
    });
    expect(
      loadConfig(['notifier'], {
        NOTIFIER_DISABLE_AFTER_FAILING_FOR: '0',
        NOTIFIER_DISABLE_AFTER_DEAD_IN_A_ROW: '0',
      }).notifier,
    ).toMatchObject({
      NOTIFIER_DISABLE_AFTER_FAILING_FOR: 0,
      NOTIFIER_DISABLE_AFTER_DEAD_IN_A_ROW: 0,
    });
    expect(() =>
      loadConfig(['notifier'], { NOTIFIER_DISABLE_AFTER_FAILING_FOR: 'three days' }),
    ).toThrow(/NOTIFIER_DISABLE_AFTER_FAILING_FOR/);
  });

  it('binds the ops listener to loopback with metrics on, each app on its own default port', () => {
    const { ops } = loadConfig(['ops'], {});
    expect(ops).toMatchObject({ OPS_HOST: '127.0.0.1', VIGIL_METRICS: 'on' });
    expect(ops.OPS_PORT).toBeUndefined();
    expect(new Set(Object.values(DEFAULT_OPS_PORTS)).size).toBe(6);
    expect(loadConfig(['ops'], { OPS_PORT: '0' }).ops.OPS_PORT).toBe(0);
    expect(() => loadConfig(['ops'], { VIGIL_METRICS: 'maybe' })).toThrow(/VIGIL_METRICS/);
  });

  it('does not read sections an app did not ask for', () => {
    expect(loadConfig(['api'], {}).api.API_PORT).toBe(3000);
  });

  it('reads the secrets key, the rotation overlap and the audit retention', () => {
    const key = Buffer.alloc(32, 7);
    const config = loadConfig(['secrets', 'audit'], {
      VIGIL_SECRETS_KEY: key.toString('base64'),
      WEBHOOK_SECRET_OVERLAP: '90m',
    });
    expect(config.secrets.VIGIL_SECRETS_KEY).toBe(key.toString('base64'));
    expect(config.secrets.WEBHOOK_SECRET_OVERLAP).toBe(90 * 60_000);
    expect(config.audit.AUDIT_RETENTION_DAYS).toBe(365);
    expect(loadConfig(['secrets'], {}).secrets.WEBHOOK_SECRET_OVERLAP).toBe(24 * 3_600_000);
    expect(
      loadConfig(['secrets'], { VIGIL_SECRETS_KEY: key.toString('hex') }).secrets.VIGIL_SECRETS_KEY,
    ).toBe(key.toString('hex'));
  });

  it('refuses a secrets key of the wrong length without echoing it, and two sources', () => {
    const short = Buffer.alloc(16, 1).toString('base64');
    try {
      loadConfig(['secrets'], { VIGIL_SECRETS_KEY: short });
      throw new Error('expected a refusal');
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'VIGIL_SECRETS_KEY (value hidden) is invalid: must be 32 bytes in base64 (44 characters) or hex (64 characters)',
      ]);
      expect((error as Error).message).not.toContain(short);
    }
    expect(() =>
      loadConfig(['secrets'], {
        VIGIL_SECRETS_KEY: Buffer.alloc(32).toString('hex'),
        VIGIL_SECRETS_KEY_FILE: '/etc/vigil/key',
      }),
    ).toThrow(/Set one of VIGIL_SECRETS_KEY and VIGIL_SECRETS_KEY_FILE, not both/);
    expect(() => loadConfig(['secrets'], { WEBHOOK_SECRET_OVERLAP: '1 day' })).toThrow(
      /WEBHOOK_SECRET_OVERLAP="1 day" is invalid: a duration such as 24h/,
    );
  });

  it('leaves account emails off until SMTP_HOST names a server, then reads the notifier’s SMTP settings', () => {
    expect(loadConfig(['accountMail'], {}).accountMail.SMTP_HOST).toBeUndefined();
    const config = loadConfig(['accountMail'], {
      SMTP_HOST: 'smtp.example.com',
      SMTP_PORT: '587',
      SMTP_USER: 'vigil',
      SMTP_PASSWORD: 'hunter2-but-longer',
    });
    expect(config.accountMail).toEqual({
      SMTP_HOST: 'smtp.example.com',
      SMTP_PORT: 587,
      SMTP_SECURE: false,
      SMTP_USER: 'vigil',
      SMTP_PASSWORD: 'hunter2-but-longer',
      SMTP_FROM: 'Vigil <notifications@vigil.local>',
    });
  });
});
