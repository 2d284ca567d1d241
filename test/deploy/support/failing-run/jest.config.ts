import type { Config } from 'jest';
import base from '../../../../jest.config';

/**
 * The server suites' project (its global teardown) with one test that fails, no servers: what
 * `test-run-status.deploy-spec.ts` runs to see that a failure reaches jest's exit status.
 */
const server = (base.projects ?? []).find(
  (project): project is Exclude<typeof project, string> =>
    typeof project !== 'string' && project.displayName === 'e2e',
);
if (!server) throw new Error('jest.config.ts has no e2e project');
const { globalSetup: _setup, setupFilesAfterEnv: _isolate, ...teardownOnly } = server;

const config: Config = {
  projects: [
    {
      ...teardownOnly,
      displayName: 'failing-run',
      testMatch: ['<rootDir>/test/deploy/support/failing-run/*.failing-spec.ts'],
    },
  ],
};
export default config;
