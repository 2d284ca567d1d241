import { basename } from 'node:path';

/**
 * Gives each test file its own topic and index prefix under the run's, so one file's records
 * (a DLQ probe, a hand-made command) never reach another file's consumers. Removal at the end
 * of the run still matches the run's prefix.
 */
const runId = process.env.VIGIL_TEST_RUN_ID;
const testPath = expect.getState().testPath ?? '';
if (runId && testPath) {
  const name = basename(testPath)
    .replace(/\.(e2e-spec|int-spec)\.ts$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-');
  process.env.VIGIL_TOPIC_PREFIX = `test-${runId}.${name}.`;
  process.env.VIGIL_INDEX_PREFIX = `test-${runId}-${name}-`;
}
