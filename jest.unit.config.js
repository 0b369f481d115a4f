// `npm run test:unit`: the tests that need no server — no PostgreSQL, Redis or NATS, no listening
// port, no spawned process — in one jest project, without the global setup that finds or starts
// servers. Which files belong is test-support/unit/tier.js's rule (docs/decisions.md § Unit
// tier); test-support/unit/setup.js fails a test of the tier that reaches outside its
// process. `npm test` still runs these files too, in their own projects (jest.config.js).
const preset = require('./jest.preset.js');
const { ROOT, classify } = require('./test-support/unit/tier.js');

const escape = (path) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const { unit } = classify(ROOT);

module.exports = {
  ...preset,
  displayName: 'unit',
  rootDir: ROOT,
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test/docs', '<rootDir>/test-support'],
  // The exact list, so that a file marked `@integration` is not even collected.
  testMatch: undefined,
  testRegex: [`^(${unit.map(escape).join('|')})$`],
  setupFilesAfterEnv: [...preset.setupFilesAfterEnv, '<rootDir>/test-support/unit/setup.js'],
  testTimeout: 10_000,
};
