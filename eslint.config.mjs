// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import boundaries from 'eslint-plugin-boundaries';

/*
 * The architecture (DESIGN.md §7, §9), checked on every import, aliased or relative, type-only
 * or not. Libs, bottom to top: a lib imports only libs before it in this list (query-language
 * none, notification-policy contracts only); a lib added to libs/ must be placed here first.
 */
const LIB_ORDER = [
  'contracts',
  'query-language',
  'notification-policy',
  'destinations',
  'config',
  'ops',
  'http',
  'kafka',
  'control-plane',
  'search',
  'auth',
  'workspace',
];
const LIBS_ALLOWED_BELOW = {
  'query-language': [],
  'notification-policy': ['contracts'],
  destinations: ['contracts', 'notification-policy'],
};
const libsBelow = (lib) => LIBS_ALLOWED_BELOW[lib] ?? LIB_ORDER.slice(0, LIB_ORDER.indexOf(lib));
/** Pure: no I/O at all, so their tests are fast and exhaustive (their specs may cross-check with node:crypto). */
const PURE_LIBS = ['contracts', 'query-language', 'notification-policy'];
const IO_MODULES = [
  'pg',
  'kafkajs',
  '@kafkajs/*',
  '@elastic/*',
  '@electric-sql/*',
  'nodemailer',
  'smtp-server',
  'express',
  '@nestjs/*',
];
const describeOrder = () =>
  LIB_ORDER.map((lib) => `${lib} (${libsBelow(lib).join(', ') || 'no lib'})`).join(', ');

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
      // The web application's browser script is source, not build output.
      '!apps/web/assets/*.js',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        emitDecoratorMetadata: true,
        experimentalDecorators: true,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/elements': [
        { type: 'lib', pattern: 'libs/*', capture: ['lib'], partialMatch: false },
        { type: 'app', pattern: 'apps/*', capture: ['app'], partialMatch: false },
        { type: 'test', pattern: 'test', partialMatch: false },
        { type: 'bench', pattern: 'bench', partialMatch: false },
      ],
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
    },
    rules: {
      // Later policies override earlier ones for the imports they match.
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          checkAllOrigins: true,
          policies: [
            ...LIB_ORDER.flatMap((lib) => [
              {
                from: { element: { type: 'lib', captured: { lib } } },
                disallow: { to: { element: { type: 'lib' } } },
                message:
                  `libs/${lib} must not import libs/{{to.element.captured.lib}}: ` +
                  (libsBelow(lib).length > 0
                    ? `it may import only ${libsBelow(lib).join(', ')}`
                    : 'it imports no lib') +
                  ` (libs import downwards, in the declared order ${LIB_ORDER.join(' < ')}).`,
              },
              {
                from: { element: { type: 'lib', captured: { lib } } },
                allow: { to: { element: { type: 'lib', captured: { lib: libsBelow(lib) } } } },
              },
            ]),
            {
              // A lib missing from LIB_ORDER imports no lib until it is placed in the order.
              from: { element: { type: 'lib', captured: { lib: `!{${LIB_ORDER.join(',')}}` } } },
              disallow: { to: { element: { type: 'lib' } } },
              message:
                'libs/{{from.element.captured.lib}} is not in the declared lib order ' +
                '(LIB_ORDER in eslint.config.mjs): place it there before it imports a lib.',
            },
            {
              from: { element: { type: 'lib' } },
              disallow: { to: { element: { type: ['app', 'test', 'bench'] } } },
              message:
                'libs/{{from.element.captured.lib}} must not import {{dependency.source}}: ' +
                'libs never depend on apps, test/ or bench/.',
            },
            {
              // A lib's tests may use the shared test harness (receivers, sinks, arbitraries).
              from: {
                element: {
                  type: 'lib',
                  fileInternalPath: ['**/*.spec.ts', '**/*.int-spec.ts'],
                },
              },
              allow: { to: { element: { type: 'test', fileInternalPath: 'support/**' } } },
            },
            {
              from: { element: { type: 'app' } },
              disallow: { to: { element: { type: 'app' } } },
              message:
                'apps/{{from.element.captured.app}} must not import apps/{{to.element.captured.app}} ' +
                '({{dependency.source}}): apps never import each other; shared code belongs in a lib.',
            },
            {
              // The all-in-one launcher composes the other apps' start functions: the one exception.
              from: {
                element: {
                  type: 'app',
                  captured: { app: 'all-in-one' },
                  fileInternalPath: 'src/start-all-in-one.ts',
                },
              },
              allow: { to: { element: { type: 'app', fileInternalPath: 'src/start-*.ts' } } },
            },
            {
              disallow: {
                to: { element: { type: 'lib' } },
                dependency: { source: '!@vigil/*' },
              },
              message:
                'Import libs/{{to.element.captured.lib}} as @vigil/{{to.element.captured.lib}}, ' +
                'not by a relative path ({{dependency.source}}).',
            },
            {
              disallow: { to: { element: { type: 'lib', fileInternalPath: '!src/index.ts' } } },
              message:
                '{{dependency.source}} is an internal of libs/{{to.element.captured.lib}}: import ' +
                'what it exports from @vigil/{{to.element.captured.lib}} (its src/index.ts).',
            },
            {
              disallow: { dependency: { source: '@vigil/*/**' } },
              message:
                '{{dependency.source}} reaches into a lib: import it from its entry, @vigil/<lib>.',
            },
            {
              from: { element: { type: 'lib', captured: { lib: PURE_LIBS } } },
              disallow: {
                to: [{ module: { origin: 'core' } }, { module: { source: IO_MODULES } }],
              },
              message:
                'libs/{{from.element.captured.lib}} is pure and must not import {{dependency.source}}: ' +
                `${PURE_LIBS.join(', ')} do no I/O (no Node built-in, database, broker, search, mail or HTTP module).`,
            },
            {
              from: {
                element: {
                  type: 'lib',
                  captured: { lib: PURE_LIBS },
                  fileInternalPath: '**/*.spec.ts',
                },
              },
              allow: { to: { module: { source: ['node:crypto', 'crypto'] } } },
            },
          ],
        },
      ],
    },
  },
  {
    // The browser script: plain ES2019 in the page, without types or modules.
    files: ['apps/web/assets/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      ecmaVersion: 2019,
      sourceType: 'script',
      globals: { window: 'readonly', document: 'readonly', navigator: 'readonly' },
    },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      strict: ['error', 'function'],
      'no-var': 'off',
      'prefer-arrow-callback': 'off',
    },
  },
  {
    files: [
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      '**/*.e2e-spec.ts',
      'test/**/*.ts',
      'bench/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
