// Type-aware linting (STYLE § Habits) and Nx module boundaries (apps never import apps; a scope
// imports itself and shared; util/contract libs stay free of I/O libraries).
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import entityManagerParameter from './scripts/eslint-rules/no-entity-manager-parameter.js';

/** Nx tag rules; tests may also use the testing library. */
function boundaries(forTests) {
  const t = (tags) => (forTests ? [...tags, 'type:testing'] : tags);
  return {
    allow: [],
    // A test-only cycle: @wp/testing builds on @wp/security (signing test tokens, vouching for
    // the caches), and security's own specs use @wp/testing's environment. Production code of
    // security cannot import testing anyway (the type:testing tag is allowed in tests only).
    ignoredCircularDependencies: [['@wp/security', '@wp/testing']],
    depConstraints: [
      {
        sourceTag: 'type:app',
        onlyDependOnLibsWithTags: [
          'type:data-access',
          'type:util',
          'type:contract',
          'type:testing',
        ],
      },
      {
        sourceTag: 'type:data-access',
        onlyDependOnLibsWithTags: t(['type:data-access', 'type:util', 'type:contract']),
      },
      { sourceTag: 'type:util', onlyDependOnLibsWithTags: t(['type:util', 'type:contract']) },
      { sourceTag: 'type:contract', onlyDependOnLibsWithTags: t(['type:contract']) },
      {
        // A testing library may build on another (event-testing on testing); Nx refuses cycles.
        sourceTag: 'type:testing',
        onlyDependOnLibsWithTags: [
          'type:data-access',
          'type:util',
          'type:contract',
          'type:testing',
        ],
      },
      { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
      { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:shared'] },
      { sourceTag: 'scope:auth', onlyDependOnLibsWithTags: ['scope:auth', 'scope:shared'] },
      { sourceTag: 'scope:org', onlyDependOnLibsWithTags: ['scope:org', 'scope:shared'] },
      { sourceTag: 'scope:wallet', onlyDependOnLibsWithTags: ['scope:wallet', 'scope:shared'] },
      {
        sourceTag: 'scope:analytics',
        onlyDependOnLibsWithTags: ['scope:analytics', 'scope:shared'],
      },
    ],
  };
}

/**
 * `@IsOptional()` lets `null` through as a valid value (it was a 500 wherever the column is NOT
 * NULL): DTOs say `@MayBeAbsent()` or `@MayBeNull()` of @wp/http (docs/decisions.md § Wire format).
 */
const NO_IS_OPTIONAL = {
  name: 'class-validator',
  importNames: ['IsOptional'],
  message: 'Use @MayBeAbsent() (null refused) or @MayBeNull() (null has a meaning) from @wp/http.',
};

/** Requests of the JSON:API services are class-validator DTOs (docs/decisions.md § Validation). */
const NO_ZOD_FOR_REQUESTS = {
  name: 'zod',
  message:
    'Requests are validated by class-validator DTOs here; zod is for configuration and the event and RPC contracts (docs/decisions.md § Validation).',
};

/** Configuration and contracts are zod schemas (docs/decisions.md § Validation). */
const CLASS_VALIDATION = ['class-validator', 'class-transformer'].map((name) => ({
  name,
  message:
    'Configuration and the event and RPC contracts are zod schemas (docs/decisions.md § Validation).',
}));

/**
 * The unit of work is reached through `TxHost` of @wp/persistence only (docs/decisions.md
 * § Transactions in the request context): the plugin's `@Transactional()` decorator looks its
 * host up in a process-wide registry by connection name, which a second app or a second
 * instance of one in the same process (tests, embedded mode) silently replaces.
 */
const NO_DIRECT_CLS = [
  'nestjs-cls',
  '@nestjs-cls/transactional',
  '@nestjs-cls/transactional-adapter-typeorm',
].map((name) => ({
  name,
  message:
    'Inject TxHost from @wp/persistence and open boundaries with txHost.withTransaction (docs/decisions.md § Transactions in the request context).',
}));

/**
 * Where an `EntityManager` parameter is allowed (`wp/no-entity-manager-parameter`,
 * docs/decisions.md § Transactions in the request context, "What stays explicit, and why").
 * Everywhere else in apps/*\/src and libs/*\/src a transaction is read from `TxHost`. Each entry
 * says why the manager is a parameter there; adding one needs the same.
 */
export const ENTITY_MANAGER_EXCEPTIONS = [
  // Low-level query helper (the newer-wins upsert): called by repositories with the manager they
  // took from their own `this.txHost.tx` / `activeTransaction(this.txHost)`; it has no host.
  'libs/persistence/src/upsert-if-newer.ts',
  // Low-level query helper (a tenant's applied version), called like `upsertIfNewer`.
  'libs/persistence/src/applied-tenant-version.ts',
  // `UserDirectory.apply`: a helper over `upsertIfNewer` that its event handler feeds with the
  // delivery's transaction (`activeTransaction(txHost)` in user-directory.handlers.ts).
  'libs/user-directory/src/user-directory.ts',
  // Analytics' `PostgresUnitOfWork`: an object built inside the ingestion boundary around that
  // boundary's manager, the port its storage-agnostic ingestion writes through.
  'apps/analytics/src/modules/storage/postgres/ingestion-unit-of-work.ts',
  // `RetryingDataSource` overrides TypeORM's `DataSource.transaction`, whose callback receives
  // the manager: TypeORM's own signature, the one the transaction plugin's adapter calls.
  'libs/persistence/src/retrying-data-source.ts',
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'coverage/**',
      '.nx/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
      // Generated (npm run openapi): type-checked, not linted.
      'apps/*/src/openapi-metadata.ts',
      'libs/client/src/schema.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message:
            'Read configuration through the validated config (libs/config), not process.env.',
        },
      ],
      '@nx/enforce-module-boundaries': ['error', boundaries(false)],
      'no-restricted-imports': ['error', { paths: [NO_IS_OPTIONAL, ...NO_DIRECT_CLS] }],
    },
  },
  {
    // No `EntityManager` parameter outside the exceptions above (tests may build managers by
    // hand to exercise the helpers).
    files: ['apps/*/src/**/*.ts', 'libs/*/src/**/*.ts'],
    ignores: ['**/*.spec.ts', ...ENTITY_MANAGER_EXCEPTIONS],
    plugins: { wp: { rules: { 'no-entity-manager-parameter': entityManagerParameter.rule } } },
    rules: { 'wp/no-entity-manager-parameter': 'error' },
  },
  {
    // The one place that wires the plugin (libs/persistence § transactionContext).
    files: ['libs/persistence/src/transaction-context.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_IS_OPTIONAL] }] },
  },
  {
    // One validation system per layer (docs/decisions.md § Validation): the JSON:API services
    // validate requests with class-validator DTOs, never zod (their configuration excepted, and
    // the gateway's document builder, which turns the contracts' zod webhook schemas into JSON
    // Schema and validates nothing).
    files: ['apps/{auth,gateway,org,wallet}/src/**/*.ts'],
    ignores: ['apps/*/src/config/**', 'apps/gateway/src/docs/openapi-webhooks.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [NO_IS_OPTIONAL, NO_ZOD_FOR_REQUESTS, ...NO_DIRECT_CLS] },
      ],
    },
  },
  {
    // Util and contract libraries stay free of I/O clients.
    files: ['libs/contracts/**/*.ts', 'libs/config/**/*.ts', 'libs/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: ['typeorm', 'ioredis', 'nats', 'pg', NO_IS_OPTIONAL] },
      ],
    },
  },
  {
    // Configuration and the event/RPC contracts are zod schemas, never class-validator classes
    // (docs/decisions.md § Validation); the I/O rule above still holds.
    files: ['libs/contracts/**/*.ts', 'libs/config/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: ['typeorm', 'ioredis', 'nats', 'pg', ...CLASS_VALIDATION] },
      ],
    },
  },
  {
    // Configuration loaders and tests may read the environment.
    files: [
      'libs/config/**/*.ts',
      '**/*.spec.ts',
      '**/test/**/*.ts',
      'libs/testing/**/*.ts',
      'libs/platform/src/migrate-main.ts',
      'bench/**/*.ts',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@nx/enforce-module-boundaries': ['error', boundaries(true)],
      // JSON answers under test are untyped on purpose: the assertions are the types.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  prettier,
);
