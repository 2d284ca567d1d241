import type { Config } from 'jest';
import { readdirSync } from 'node:fs';

const libs = readdirSync(`${__dirname}/libs`);
const moduleNameMapper = Object.fromEntries(
  libs.map((lib) => [`^@vigil/${lib}$`, `<rootDir>/libs/${lib}/src/index.ts`]),
);
const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
    },
  ],
  // PGlite's CommonJS build loads Node built-ins with import(), which Jest's module sandbox
  // refuses without --experimental-vm-modules: compile those calls to require().
  '/node_modules/@electric-sql/pglite/dist/.+\\.cjs$': [
    '@swc/jest',
    { jsc: { target: 'es2022' }, module: { type: 'commonjs', ignoreDynamic: false } },
  ],
  // openid-client and its dependencies are ESM only. Node requires them as they are, but Jest's
  // module sandbox cannot: compile them to CommonJS for the tests (oidc-provider: tests only).
  '/node_modules/(openid-client|oauth4webapi|jose|oidc-provider)/.+\\.js$': [
    '@swc/jest',
    { jsc: { target: 'es2022' }, module: { type: 'commonjs' } },
  ],
};
const common = {
  rootDir: __dirname,
  transform,
  transformIgnorePatterns: [
    '/node_modules/(?!(@electric-sql/pglite|openid-client|oauth4webapi|jose|oidc-provider)/)',
  ],
  moduleNameMapper,
  testEnvironment: 'node',
};

const config: Config = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'] },
    {
      // The deployment as shipped: compose files and Kubernetes manifests through their own
      // tools, the image's files, `npm start` stopped by a signal, and the test run's own exit
      // status. No servers needed.
      ...common,
      displayName: 'deploy',
      testMatch: ['<rootDir>/test/deploy/**/*.deploy-spec.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs}/**/*.int-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/isolate-test-file.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/isolate-test-file.ts'],
    },
    {
      // Faults, hostile input, security and load (test/chaos/README.md). `npm test` runs the
      // shortened form; `npm run test:chaos` sets VIGIL_CHAOS=full.
      ...common,
      displayName: 'chaos',
      testMatch: ['<rootDir>/test/chaos/**/*.chaos-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/isolate-test-file.ts'],
    },
  ],
};
export default config;
