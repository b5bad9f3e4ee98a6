import eslint from '@eslint/js';
import jest from 'eslint-plugin-jest';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'src/metadata.ts',
      'src/database/migrations/**',
      'coverage/**',
      '.migration-build/**',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // One way to the database (docs/transactions.md): only src/database and repositories hold an EntityManager,
    // open query runners or send hand-written SQL; everything else calls a repository inside transactions.run.
    files: ['src/**/*.ts'],
    ignores: ['src/database/**', 'src/**/*.repository.ts', 'src/**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[property.name='manager']:matches([object.name='dataSource'], [object.property.name='dataSource'])",
          message:
            'dataSource.manager outside src/database and repositories: call a repository (docs/transactions.md).',
        },
        {
          selector: "CallExpression[callee.property.name='transaction']",
          message: 'Open transactions with TransactionService.run (docs/transactions.md).',
        },
        {
          selector: "CallExpression[callee.property.name='createQueryRunner']",
          message: 'Query runners belong to src/database (docs/transactions.md).',
        },
        {
          selector: "CallExpression[callee.property.name='query']:not([callee.object.type='ThisExpression'])",
          message: 'Hand-written SQL belongs in a repository (docs/transactions.md).',
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', '**/*.spec.ts'],
    ...jest.configs['flat/recommended'],
    rules: {
      ...jest.configs['flat/recommended'].rules,
      'jest/valid-expect': 'error',
      'jest/no-conditional-expect': 'off',
      'jest/no-standalone-expect': ['error', { additionalTestBlockFunctions: ['itOnMysql', 'itOnSqlite'] }],
      'jest/expect-expect': ['error', { assertFunctionNames: ['expect', 'expect*'] }],
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
        ...Object.fromEntries(
          [
            'URL',
            'fetch',
            'setTimeout',
            'clearTimeout',
            'setInterval',
            'clearInterval',
            'Buffer',
            'AbortController',
            'performance',
          ].map((name) => [name, 'readonly']),
        ),
      },
    },
  },
);
