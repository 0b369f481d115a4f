// `npm test`: every project's unit (src/**/*.spec.ts) and e2e (test/**/*.e2e-spec.ts) tests,
// plus the cross-service tests in test/e2e, run twice: in services mode (`platform`) and in
// embedded mode (`platform-embedded`, docs/architecture.md § Two modes), and `npm start` itself
// in embedded mode (`embedded`, test/embedded), and the deployment files (`deploy`,
// deploy/test: kustomize overlays and docker-compose.yml). Real PostgreSQL, Redis and NATS, found
// or started by test-support/global-setup.js; without Redis and NATS the services-mode runs are
// skipped, each with its reason (README § Tests).
const preset = require('./jest.preset.js');

const project = (name, dir) => ({
  ...preset,
  displayName: name,
  rootDir: dir,
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
    '<rootDir>/test/**/*.spec.ts',
  ],
});

const { readdirSync, existsSync } = require('node:fs');
const projects = [];
for (const kind of ['libs', 'apps']) {
  for (const name of readdirSync(`${__dirname}/${kind}`)) {
    projects.push(project(name, `${__dirname}/${kind}/${name}`));
  }
}
if (existsSync(`${__dirname}/test`)) {
  projects.push({
    ...project('platform', `${__dirname}/test`),
    testMatch: ['<rootDir>/e2e/**/*.e2e-spec.ts'],
    testEnvironmentOptions: {
      needsServers: ['redis', 'nats'],
      reason: 'test/e2e in services mode, which also run in embedded mode',
    },
  });
  projects.push({
    ...project('platform-embedded', `${__dirname}/test`),
    testMatch: ['<rootDir>/e2e/**/*.e2e-spec.ts'],
    setupFiles: ['<rootDir>/support/embedded-mode.js'],
  });
  projects.push({
    ...project('embedded', `${__dirname}/test`),
    testMatch: ['<rootDir>/embedded/**/*.e2e-spec.ts'],
  });
  // Repository checks that need no server: every citation resolves (docs/architecture.md).
  projects.push({
    ...project('docs', `${__dirname}/test`),
    testMatch: ['<rootDir>/docs/**/*.spec.ts'],
  });
}

// The test harness itself (test-support: servers, skips, summary).
projects.push({
  ...preset,
  displayName: 'harness',
  rootDir: `${__dirname}/test-support`,
  testMatch: ['<rootDir>/**/*.spec.js'],
});

projects.push({
  ...preset,
  displayName: 'deploy',
  rootDir: `${__dirname}/deploy`,
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
});

// `TEST_SCOPE=servers`: only what runs differently with PostgreSQL, Redis and NATS (CI's second
// run, after everything on a bare machine; test-support/servers-scope.js, README § Tests).
const scope = process.env.TEST_SCOPE;
if (scope && scope !== 'servers') throw new Error(`TEST_SCOPE must be "servers", got "${scope}"`);

module.exports = {
  projects:
    scope === 'servers'
      ? require('./test-support/servers-scope.js').serversScope(projects)
      : projects,
  testTimeout: 60_000,
  // Test files run in a worker (one on a 2-core machine, as in band), and a worker whose memory
  // passed this after a file is replaced. In band, every file's module registry stayed reachable
  // from the one process: its heap grew past 3 GB over the run, every major collection (and the
  // services the e2e suites run in-process) slowed with it, and the run could end out of memory.
  workerIdleMemoryLimit: '1GB',
  globalSetup: '<rootDir>/test-support/global-setup.js',
  globalTeardown: '<rootDir>/test-support/global-teardown.js',
  reporters: ['default', '<rootDir>/test-support/summary-reporter.js'],
};
