import { execFileSync } from 'node:child_process';
import { basename } from 'node:path';
import { databaseUrlFor } from './test-environment';

/**
 * Gives each test file its own database, topic prefix and index prefix under the run's, so one
 * file's settings, records or hand-made commands never reach another file's apps. It runs
 * before the test file is loaded, so module-level reads of process.env see the file's values;
 * that is why the database is created synchronously. Removal at the end of the run matches
 * the run's prefix.
 */
const runId = process.env.VIGIL_TEST_RUN_ID;
const testPath = expect.getState().testPath ?? '';
if (runId && testPath) {
  const name = basename(testPath)
    .replace(/\.(e2e-spec|int-spec|chaos-spec)\.ts$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-');
  process.env.VIGIL_TOPIC_PREFIX = `test-${runId}.${name}.`;
  process.env.VIGIL_INDEX_PREFIX = `test-${runId}-${name}-`;
  const database = `vigil_test_${runId}_${name.replace(/-/g, '_')}`.slice(0, 63);
  createDatabase(database);
  process.env.DATABASE_URL = databaseUrlFor(database);
}

function createDatabase(database: string): void {
  const script = `
    const { Client } = require('pg');
    const client = new Client({ connectionString: process.env.ADMIN_URL });
    client.connect()
      .then(() => client.query('CREATE DATABASE "' + process.env.DATABASE + '"'))
      .catch((error) => { if (error.code !== '42P04') { console.error(error.message); process.exitCode = 1; } })
      .finally(() => client.end());`;
  execFileSync(process.execPath, ['-e', script], {
    env: { ...process.env, ADMIN_URL: adminUrl(), DATABASE: database },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function adminUrl(): string {
  return databaseUrlFor('postgres');
}
