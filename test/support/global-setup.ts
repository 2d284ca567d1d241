import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { adminDatabaseUrl, databaseUrlFor, newRunId, serverDefaults } from './test-environment';

/**
 * Gives each test run its own database, topic prefix and index prefix on the shared servers,
 * so runs never see each other's data. Workers inherit these variables.
 */
export default async function globalSetup(): Promise<void> {
  const runId = process.env.VIGIL_TEST_RUN_ID ?? newRunId();
  process.env.VIGIL_TEST_RUN_ID = runId;
  process.env.NODE_ENV = 'test';
  process.env.LOG_LEVEL ??= 'warn';
  process.env.KAFKA_BROKERS ??= serverDefaults.KAFKA_BROKERS;
  process.env.SCHEMA_REGISTRY_URL ??= serverDefaults.SCHEMA_REGISTRY_URL;
  process.env.ELASTICSEARCH_URL ??= serverDefaults.ELASTICSEARCH_URL;
  process.env.VIGIL_TOPIC_PREFIX = `test-${runId}.`;
  process.env.VIGIL_INDEX_PREFIX = `test-${runId}-`;
  process.env.VIGIL_TOPIC_PARTITIONS ??= '3';
  // The apps refuse to start on a shared database without the key that seals webhook secrets.
  process.env.VIGIL_SECRETS_KEY ??= randomBytes(32).toString('base64');
  // Each app started by a test gets a free ops port: tests start several at once.
  process.env.OPS_PORT ??= '0';

  const database = `vigil_test_${runId}`;
  const admin = new Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  process.env.DATABASE_URL = databaseUrlFor(database);
}
