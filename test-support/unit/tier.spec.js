// The unit tier's rule and guard (docs/decisions.md § Unit tier): which files belong, and that a
// unit test reaching outside its process is refused. Runs in the unit tier (guard installed by its
// setup) and in `npm test`'s harness project (installed here, and removed afterwards).
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const childProcess = require('node:child_process');
const { classify, integrationReason } = require('./tier.js');
const guard = require('./no-network.js');

describe('the unit tier rule', () => {
  let root;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wp-unit-tier-'));
    const write = (file, text) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };
    write('apps/a/src/rule.spec.ts', "import { x } from './x';\n");
    write('apps/a/src/store.spec.ts', '/** @integration PostgreSQL: the store */\nimport x;\n');
    write('apps/a/test/e2e/flow.e2e-spec.ts', '');
    write('apps/a/test/thing.spec.ts', '');
    write('libs/b/src/deep/pure.spec.ts', '// a comment first\n/**\n * Pure.\n */\n');
    write('libs/b/src/late.spec.ts', 'code();\n/** @integration too late to count */\n');
    write('test/docs/citations.spec.ts', '');
    write('test/e2e/x.e2e-spec.ts', '');
    write('test-support/skips.spec.js', '');
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('takes src specs, repository checks and harness tests, minus files marked @integration', () => {
    const { unit, integration } = classify(root);
    expect(unit.map((f) => path.relative(root, f))).toEqual([
      'apps/a/src/rule.spec.ts',
      'libs/b/src/deep/pure.spec.ts',
      'libs/b/src/late.spec.ts',
      'test-support/skips.spec.js',
      'test/docs/citations.spec.ts',
    ]);
    expect(integration).toEqual([
      expect.objectContaining({
        relative: 'apps/a/src/store.spec.ts',
        reason: 'PostgreSQL: the store',
      }),
    ]);
  });

  it('reads the pragma from the first docblock only', () => {
    expect(integrationReason('/** @integration Redis */\n')).toBe('Redis');
    expect(integrationReason("'use strict';\n/**\n * @integration NATS: x\n */")).toBe('NATS: x');
    expect(integrationReason('/** Pure. */\n/** @integration later */')).toBeNull();
  });

  it('keeps out of the tier the specs under src that need servers', () => {
    const marked = classify().integration.map((i) => i.relative);
    expect(marked).toEqual(
      expect.arrayContaining([
        'libs/security/src/revocation-list.spec.ts',
        'libs/testing/src/sinks/sinks.spec.ts',
      ]),
    );
  });
});

describe('the unit tier guard', () => {
  const ours = !guard.installed();
  beforeAll(() => guard.install());
  afterAll(() => {
    if (ours) guard.uninstall();
  });
  // Each case takes its own attempts, so the tier's afterEach sees none.
  afterEach(() => guard.takeAttempts());

  const refused = (fn) => {
    let error;
    try {
      fn();
    } catch (e) {
      error = e;
    }
    expect(error?.code).toBe('EUNITTIER');
    return guard.takeAttempts();
  };

  it('refuses a TCP connection and names its address', () => {
    expect(refused(() => net.connect(5432, '127.0.0.1'))).toEqual([
      expect.stringContaining('connect to 127.0.0.1:5432'),
    ]);
    expect(refused(() => net.createConnection({ host: 'redis', port: 6379 }))).toEqual([
      expect.stringContaining('connect to redis:6379'),
    ]);
  });

  it('refuses a fetch, which fails with the refusal as its cause', async () => {
    const error = await fetch('http://127.0.0.1:4222/').catch((e) => e);
    expect(error.cause?.code ?? error.code).toBe('EUNITTIER');
    expect(guard.takeAttempts()).toEqual([expect.stringContaining('connect to')]);
  });

  it('refuses listening and spawning', () => {
    expect(refused(() => net.createServer().listen(0))).toHaveLength(1);
    expect(refused(() => childProcess.spawn('true'))).toHaveLength(1);
    expect(refused(() => childProcess.execFileSync('true'))).toHaveLength(1);
  });
});
