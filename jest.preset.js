// Shared jest settings for every project: TypeScript through SWC (type checking is `npm run
// typecheck`'s job), workspace libraries mapped to their sources so tests need no build.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

const libs = readdirSync(join(__dirname, 'libs'));
const libMap = Object.fromEntries(
  libs.map((l) => [`^@wp/${l}$`, join(__dirname, 'libs', l, 'src', 'index.ts')]),
);

module.exports = {
  // Node's environment, skipping (with a stated reason) files that need a server this run lacks.
  testEnvironment: join(__dirname, 'test-support', 'environment.js'),
  transform: {
    '^.+\\.(ts|js)$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  // ESM-only packages (pg-boss and its dependencies, p-limit and its queue, request-filtering-agent, openid-client and oauth4webapi) are compiled to CommonJS like our sources:
  // jest's own require(esm) needs --experimental-vm-modules.
  transformIgnorePatterns: [
    '/node_modules/(?!(pg-boss|serialize-error|non-error|rrule-temporal|jose|p-limit|yocto-queue|request-filtering-agent|openid-client|oauth4webapi)/)',
  ],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    ...libMap,
    // Subpath exports (libs/<lib>/package.json "exports").
    '^@wp/config/env$': join(__dirname, 'libs', 'config', 'src', 'env.ts'),
    '^@wp/identity/keys$': join(__dirname, 'libs', 'identity', 'src', 'keys.ts'),
    // The SDK package (libs/client) from its sources, like the @wp libraries.
    '^@workspace-platform/client$': join(__dirname, 'libs', 'client', 'src', 'index.ts'),
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // Every answer of the published API a test receives is checked against docs/openapi.json.
  setupFilesAfterEnv: [join(__dirname, 'test', 'support', 'openapi-contract.setup.ts')],
};
