// ESLint flat config for the whole tree: typescript-eslint's type-checked rules on every .ts file.
// Formatting belongs to Prettier (.prettierrc.json): neither preset below turns on a stylistic rule,
// so eslint-config-prettier is not needed. See docs/decisions/0008-formatter-and-linter.md.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Built output (dist/, engine/dist/ from engine's own `npm run build`) is never linted.
    ignores: [
      'node_modules/',
      'dist/',
      'engine/dist/',
      'data/',
      '.bench/',
      'host/generated/',
      'engine/time/data/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // The three rules this configuration exists for (issue 20).
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's describe/it return promises the runner itself awaits.
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        // A `default` branch is a written decision (e.g. map the provider's other number types to 'unknown').
        { requireDefaultForNonUnion: false, considerDefaultExhaustiveForUnions: true },
      ],
      // An `any` written out is a visible decision (e.g. handler input already validated by the schema);
      // the no-unsafe-* rules still catch where an `any` flows.
      '@typescript-eslint/no-explicit-any': 'off',
      // Port methods are async by contract (Telephony, Sms, Email); in-memory implementations have nothing to await.
      '@typescript-eslint/require-await': 'off',
      // `_`-prefixed names mark parameters a signature requires but the body does not use.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Walks the parsed OpenAPI document: plain JSON typed loosely on purpose (OpenApiDocument), shape checked by the schema test.
    files: ['schema/load.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Payment and in-app providers' JSON (notifications, REST answers): read field by field with typeof checks,
    // since the providers' documents are large and loosely versioned; the any-tracking rules only add noise there.
    files: [
      'host/adapters/payments/inapp.ts',
      'host/billing/notifications.ts',
      'host/adapters/payments/stripe.ts',
    ],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
  {
    // The engine reads time and makes ids only through its ports (Clock, Ids): its machines,
    // runtime, wheel and time rules stay deterministic under a virtual clock. The real clock
    // and random ids are port adapters of their own, in engine/defaults/.
    files: ['engine/**/*.ts'],
    ignores: ['engine/defaults/**', 'engine/sqlite/**', 'engine/postgres/**', 'engine/testing/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Read time through the Clock port.' },
        { object: 'Math', property: 'random', message: 'Make ids through the Ids port.' },
        { object: 'crypto', property: 'randomUUID', message: 'Make ids through the Ids port.' },
        { object: 'performance', property: 'now', message: 'Read time through the Clock port.' },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Arm timers through the Clock port.' },
        { name: 'setInterval', message: 'Arm timers through the Clock port.' },
      ],
    },
  },
  {
    // Tests read HTTP response bodies as untyped JSON and assert on them; the any-tracking rules only add noise there.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JS outside tsconfig.json (this file, scripts/, the dependency-cruiser rules): no type information.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // CommonJS files (dependency-cruiser reads .cjs; dist/server.cjs, from scripts/server-launcher.cjs): require is how they import.
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The web app (web/): plain ES modules run by the browser.
    files: ['web/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
);
