// Runs the analytics benchmarks (on demand, never part of `npm test`) with the same TypeScript
// transform and library mapping as the tests:
//   npx jest -c bench/jest.analytics.config.js bench/analytics-ingest.ts
//   npx jest -c bench/jest.analytics.config.js bench/analytics-reads.ts
// Real PostgreSQL, Redis and NATS must answer (as for the tests). Figures go to stdout.
const preset = require('../jest.preset.js');

module.exports = {
  ...preset,
  rootDir: '..',
  testMatch: ['<rootDir>/bench/analytics-*.ts'],
  testTimeout: 30 * 60_000,
  globalSetup: '<rootDir>/test-support/global-setup.js',
};
