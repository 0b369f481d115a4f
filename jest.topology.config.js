// `npm run test:topology`: the production topology's engines under faults (docs/operations.md
// § Production topology under faults): a 3-node NATS JetStream cluster as the prod overlay
// configures it, Redis with the persistence deploy/redis/production.conf asks for. Not part of
// `npm test`: the files start their own servers (nats-server, redis-server on free ports), kill
// them under load and take a few minutes. PostgreSQL is the test run's (global setup). CI runs
// it as its own step after `TEST_SCOPE=servers npm test` (.ci/run "topology"), reading the
// closing `N passed, N failed` the summary reporter writes to JEST_SUMMARY_FILE, as for npm test.
const preset = require('./jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'topology',
  rootDir: `${__dirname}/test`,
  testMatch: ['<rootDir>/topology/**/*.topology-spec.ts'],
  // One file at a time: each runs the whole platform and its own servers on a small machine.
  maxWorkers: 1,
  testTimeout: 120_000,
  globalSetup: `${__dirname}/test-support/global-setup.js`,
  globalTeardown: `${__dirname}/test-support/global-teardown.js`,
  reporters: ['default', `${__dirname}/test-support/summary-reporter.js`],
};
