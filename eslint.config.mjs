// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
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
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@vigil/*/*'],
              message: 'Import a lib through its public entry (@vigil/<lib>).',
            },
            {
              group: ['../../libs/*', '../../../libs/*', '../../../../libs/*'],
              message: 'Use the @vigil/<lib> alias.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@vigil/*/*'],
              message: 'Import a lib through its public entry (@vigil/<lib>).',
            },
            {
              group: ['../../*/src', '../../*/src/*', '../../../apps/*'],
              message: 'Apps never import each other.',
            },
            {
              group: ['../../../libs/*', '../../../../libs/*'],
              message: 'Use the @vigil/<lib> alias.',
            },
          ],
        },
      ],
    },
  },
  {
    // The all-in-one launcher composes the other apps' start functions: its only exception.
    files: ['apps/all-in-one/src/start-all-in-one.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@vigil/*/*'],
              message: 'Import a lib through its public entry (@vigil/<lib>).',
            },
            {
              group: ['../../*/src/*', '!../../*/src/start-*'],
              message: "The launcher imports only the apps' start functions.",
            },
          ],
        },
      ],
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
