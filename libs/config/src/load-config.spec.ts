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

  it('names every missing variable', () => {
    expect(() => loadConfig(['kafka', 'database'], {})).toThrow(ConfigError);
    try {
      loadConfig(['kafka', 'database'], {});
    } catch (error) {
      const problems = (error as ConfigError).problems;
      expect(problems).toEqual(
        expect.arrayContaining([
          'KAFKA_BROKERS is required but not set',
          'SCHEMA_REGISTRY_URL is required but not set',
          'DATABASE_URL is required but not set',
        ]),
      );
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

  it('does not read sections an app did not ask for', () => {
    expect(loadConfig(['api'], {}).api.API_PORT).toBe(3000);
  });
});
