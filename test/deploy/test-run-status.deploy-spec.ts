import { join } from 'node:path';
import { repositoryRoot, runTool } from './support/run-tool';

jest.setTimeout(120_000);

/**
 * CI trusts jest's exit status. The server suites' global teardown runs after the last test
 * file; a failed test must still end the run with a non-zero status when nothing else is left
 * open in the process (a teardown awaiting an unreferenced timer let the process end there,
 * with status 0).
 */
it('ends a run of the server suites with a failing test in a non-zero status', () => {
  const { VIGIL_TEST_RUN_ID: _run, ...env } = process.env;
  const run = runTool(
    process.execPath,
    [
      join(repositoryRoot, 'node_modules', 'jest', 'bin', 'jest.js'),
      '--config',
      join(repositoryRoot, 'test', 'deploy', 'support', 'failing-run', 'jest.config.ts'),
      '--ci',
      '--runInBand',
    ],
    { env: { ...env, CI: 'true' } },
  );
  expect(run.stderr).toContain('Tests:       1 failed, 1 total');
  expect(run.status).toBe(1);
});
