// CI's servers run (`TEST_SCOPE=servers`, README § Tests): which files it keeps.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { serversScope } = require('./servers-scope.js');

function tree(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'scope-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

const match = ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'];

describe('servers scope', () => {
  it('keeps a project that declares servers whole, and an app project only where servers matter', () => {
    const root = tree({
      'apps/x/src/rule.spec.ts': 'it("adds", () => {});',
      'apps/x/src/store.spec.ts': '/** @needsServers redis: the store itself */',
      'apps/x/test/e2e/flow.e2e-spec.ts': 'it("flows", () => {});',
      'apps/y/src/only.spec.ts': 'it("is a unit", () => {});',
    });
    const platform = {
      rootDir: path.join(root, 'test'),
      testMatch: ['<rootDir>/e2e/**'],
      testEnvironmentOptions: { needsServers: ['redis'] },
    };
    const x = { displayName: 'x', rootDir: path.join(root, 'apps/x'), testMatch: match };
    const y = { displayName: 'y', rootDir: path.join(root, 'apps/y'), testMatch: match };

    const scoped = serversScope([platform, x, y]);

    expect(scoped).toHaveLength(2);
    expect(scoped[0]).toBe(platform);
    const regex = new RegExp(scoped[1].testRegex[0]);
    expect(regex.test(path.join(root, 'apps/x/test/e2e/flow.e2e-spec.ts'))).toBe(true);
    expect(regex.test(path.join(root, 'apps/x/src/store.spec.ts'))).toBe(true);
    expect(regex.test(path.join(root, 'apps/x/src/rule.spec.ts'))).toBe(false);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('keeps a test/ file outside apps and libs only when it checks for servers', () => {
    const root = tree({
      'test/e2e/plain.e2e-spec.ts': 'it("runs", () => {});',
      'test/e2e/parts.e2e-spec.ts': "describeWithServers(['redis'], 'the store')('x', () => {});",
    });
    const embedded = {
      rootDir: path.join(root, 'test'),
      testMatch: ['<rootDir>/e2e/**/*.e2e-spec.ts'],
    };
    const [scoped] = serversScope([embedded]);
    const regex = new RegExp(scoped.testRegex[0]);
    expect(regex.test(path.join(root, 'test/e2e/parts.e2e-spec.ts'))).toBe(true);
    expect(regex.test(path.join(root, 'test/e2e/plain.e2e-spec.ts'))).toBe(false);
    fs.rmSync(root, { recursive: true, force: true });
  });
});
