import { ConfigError } from './config-error';
import { loadConfig } from './load-config';

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

  it('does not read sections an app did not ask for', () => {
    expect(loadConfig(['api'], {}).api.API_PORT).toBe(3000);
  });
});
