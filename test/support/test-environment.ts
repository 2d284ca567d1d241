import { randomBytes } from 'node:crypto';

/**
 * The real servers the integration and e2e tiers use. `npm test` starts them through
 * deploy/local/servers.sh; these defaults match that script's default ports.
 */
export const serverDefaults = {
  KAFKA_BROKERS: '127.0.0.1:9092',
  SCHEMA_REGISTRY_URL: 'http://127.0.0.1:8081/apis/ccompat/v7',
  ELASTICSEARCH_URL: 'http://127.0.0.1:9200',
  POSTGRES_ADMIN_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
} as const;

export function newRunId(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

export function adminDatabaseUrl(): string {
  return process.env.POSTGRES_ADMIN_URL ?? serverDefaults.POSTGRES_ADMIN_URL;
}

export function databaseUrlFor(name: string): string {
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}
