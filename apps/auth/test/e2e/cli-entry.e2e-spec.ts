import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The operator CLI's entry points as an operator runs them (docs/operations.md § Operator CLI):
 * `--help` and usage errors answer from the arguments alone. `npm run cli` in embedded mode would
 * start the PostgreSQL of DATA_DIR (creating the folder) before running a command; for these it
 * must not, and the auth CLI must not need a database URL. Runs the built files (`npm test`
 * builds first).
 */
const ROOT = join(__dirname, '..', '..', '..', '..');
const run = (file: string, args: string[], env: Record<string, string>) =>
  promisify(execFile)(process.execPath, [join(ROOT, file), ...args], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

describe('operator CLI entry points: arguments first', () => {
  let dir: string;
  let dataDir: string;
  let noTypeorm: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wp-cli-'));
    dataDir = join(dir, 'data');
    // Preloaded into the CLI: loading TypeORM (what every command's modules start with) fails.
    noTypeorm = join(dir, 'no-typeorm.js');
    writeFileSync(
      noTypeorm,
      `const Module = require('node:module');
       const load = Module._load;
       Module._load = function (request, ...rest) {
         if (request === 'typeorm') throw new Error('typeorm loaded for --help');
         return load.call(this, request, ...rest);
       };`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints the usage without starting PostgreSQL (npm run cli -- --help)', async () => {
    const { code, stdout } = await run('scripts/cli.js', ['--help'], { DATA_DIR: dataDir });
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: npm run cli -- <command> [--json]');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('answers a usage error with exit code 2 without starting PostgreSQL', async () => {
    const unknown = await run('scripts/cli.js', ['apps:delete'], { DATA_DIR: dataDir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command apps:delete');
    const revoke = await run('scripts/cli.js', ['apps:revoke', '42'], { DATA_DIR: dataDir });
    expect(revoke.code).toBe(2);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('answers --help of the image entry without loading the commands or a database', async () => {
    const { code, stdout } = await run('apps/auth/dist/cli.js', ['--help'], {
      NODE_OPTIONS: `--require ${noTypeorm}`,
    });
    expect(code).toBe(0);
    expect(stdout).toContain('migrations:status');
  });
});
