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
};
const common = {
  rootDir: __dirname,
  transform,
  transformIgnorePatterns: ['/node_modules/(?!@electric-sql/pglite/)'],
  moduleNameMapper,
  testEnvironment: 'node',
};

const config: Config = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'] },
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
