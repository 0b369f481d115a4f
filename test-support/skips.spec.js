// The skip bookkeeping of test runs without some servers (README § Tests): the test
// environment marks a whole file skipped and records why; the summary names every reason.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const ServersEnvironment = require('./environment.js');
const { readSkips, summarize } = require('./skips.js');

const ROOT = path.join(__dirname, '..');

function environment(pragmas, options = {}) {
  const config = {
    globalConfig: {},
    projectConfig: { testEnvironmentOptions: options, setupFiles: [], testEnvironment: 'node' },
  };
  return new ServersEnvironment(config, {
    console,
    docblockPragmas: pragmas,
    testPath: path.join(ROOT, 'apps/x/test/x.e2e-spec.ts'),
  });
}

/** A circus state: a root block with a test and a describe holding another test. */
function state() {
  const inner = { type: 'test', mode: undefined };
  const block = { type: 'describeBlock', mode: undefined, children: [inner] };
  const top = { type: 'test', mode: undefined };
  return {
    rootDescribeBlock: { type: 'describeBlock', children: [top, block] },
    top,
    block,
    inner,
  };
}

describe('test environment and skip summary', () => {
  const saved = { ...process.env };
  let file;

  beforeEach(() => {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wp-skips-')), 'skips.jsonl');
    process.env.TEST_SKIPS_FILE = file;
  });
  afterEach(() => {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    process.env = { ...saved };
  });

  it('skips every test and hook of a file whose servers are missing, and records why', async () => {
    process.env.TEST_MISSING_SERVERS = 'redis,nats';
    const env = environment({ needsServers: 'redis: the Redis stores themselves' });
    const s = state();
    await env.handleTestEvent({ name: 'run_start' }, s);
    expect([s.top.mode, s.block.mode, s.inner.mode]).toEqual(['skip', 'skip', 'skip']);
    expect(env.global.__TEST_FILE_SKIPPED__).toBe(true);
    expect(readSkips()).toEqual([
      {
        file: 'apps/x/test/x.e2e-spec.ts',
        part: null,
        group: 'no Redis/NATS',
        reason: 'the Redis stores themselves',
      },
    ]);
  });

  it('runs a file whose servers answer, and one that declares none', async () => {
    process.env.TEST_MISSING_SERVERS = 'nats';
    for (const env of [
      environment({ needsServers: 'redis: the Redis stores' }),
      environment({}),
      environment({}, { needsServers: ['redis'], reason: 'a project on Redis' }),
    ]) {
      const s = state();
      await env.handleTestEvent({ name: 'run_start' }, s);
      expect([s.top.mode, s.inner.mode]).toEqual([undefined, undefined]);
    }
    expect(readSkips()).toEqual([]);
  });

  it("skips a project's files by its testEnvironmentOptions", async () => {
    process.env.TEST_MISSING_SERVERS = 'redis,nats';
    const env = environment({}, { needsServers: ['redis', 'nats'], reason: 'services mode' });
    const s = state();
    await env.handleTestEvent({ name: 'run_start' }, s);
    expect(s.inner.mode).toBe('skip');
    expect(readSkips()[0].reason).toBe('services mode');
  });

  it('names each reason once per group, with the file or the number of files', () => {
    const r = (file, group, reason) => ({ file, part: null, group, reason });
    const line = summarize(
      [
        r('test/e2e/a.e2e-spec.ts', 'no Redis/NATS', 'services mode'),
        r('test/e2e/b.e2e-spec.ts', 'no Redis/NATS', 'services mode'),
        r('libs/m/test/bus.e2e-spec.ts', 'no Redis/NATS', 'JetStream'),
        r('test/e2e/c.e2e-spec.ts', 'services mode only', 'NATS outage'),
      ],
      2,
    );
    expect(line).toBe(
      ' (no Redis/NATS: services mode ×2, JetStream (bus.e2e-spec.ts); ' +
        'services mode only: NATS outage (c.e2e-spec.ts); 2 without a stated reason)',
    );
    expect(summarize([], 0)).toBe('');
  });
});
