import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { dropDatabase, ensureDatabase } from '@wp/persistence';
import { TestEnvironment } from '@wp/testing';
import { authDataSource } from '../../apps/auth/src/database/data-source.js';
import { orgDataSource } from '../../apps/org/src/database/data-source.js';
import { walletDataSource } from '../../apps/wallet/src/database/data-source.js';
import { ANALYTICS_MIGRATIONS } from '../../apps/analytics/src/migrations/index.js';

const ROOT = join(__dirname, '..', '..');

/**
 * The operator CLI as an operator runs it (docs/operations.md § Operator CLI): a process
 * against the environment's databases, with exit codes and `--json` output.
 */
jest.setTimeout(180_000);

describe('operator CLI', () => {
  const env = new TestEnvironment();

  beforeAll(async () => {
    await env.preparePlatform();
    await env.prepareDatabase('auth', authDataSource);
    await env.prepareDatabase('org', orgDataSource);
    await env.prepareDatabase('wallet', walletDataSource);
    const analytics = env.databaseUrl('analytics'); // exists, never migrated
    await ensureDatabase(analytics);
    env.env['ANALYTICS_DATABASE_URL'] = analytics;
  });
  afterAll(async () => {
    await dropDatabase(env.databaseUrl('analytics')).catch(() => undefined);
    await env.cleanup();
  });

  async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        [
          '-r',
          join(ROOT, 'scripts', 'ts-register.js'),
          join(ROOT, 'apps', 'auth', 'src', 'cli.ts'),
          ...args,
        ],
        { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', ...env.env } },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  it('prints its help and exits 0', async () => {
    const res = await cli('--help');
    expect(res.code).toBe(0);
    for (const command of ['apps:create', 'apps:list', 'apps:revoke', 'migrations:status']) {
      expect(res.stdout).toContain(command);
    }
    expect((await cli('nonsense')).code).toBe(2);
  });

  it('creates, lists and revokes an application in JSON', async () => {
    const created = await cli('apps:create', 'Ops', 'console', '--json');
    expect(created.code).toBe(0);
    const app = JSON.parse(created.stdout) as { id: string; name: string; apiKey: string };
    expect(app).toMatchObject({ name: 'Ops console', apiKey: expect.stringMatching(/^wpk_/) });

    const listed = JSON.parse((await cli('apps:list', '--json')).stdout) as { id: string }[];
    expect(listed.map((a) => a.id)).toContain(app.id);
    expect(JSON.stringify(listed)).not.toContain(app.apiKey);

    const revoked = await cli('apps:revoke', app.id, '--json');
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id: app.id, revokedAt: expect.any(String) });
    const after = JSON.parse((await cli('apps:list', '--json')).stdout) as { id: string }[];
    expect(after.map((a) => a.id)).not.toContain(app.id);
    expect((await cli('apps:revoke', app.id)).code).toBe(1);
    expect((await cli('apps:revoke', 'not-a-uuid')).code).toBe(2);
  });

  it('reports applied and pending migrations of every service', async () => {
    const res = await cli('migrations:status', '--json');
    expect(res.code).toBe(0);
    const statuses = JSON.parse(res.stdout) as {
      service: string;
      applied: string[];
      pending: string[];
    }[];
    const by = Object.fromEntries(statuses.map((s) => [s.service, s]));
    for (const service of ['auth', 'org', 'wallet']) {
      expect(by[service].pending).toEqual([]);
      expect(by[service].applied.length).toBeGreaterThan(0);
    }
    expect(by['analytics'].applied).toEqual([]);
    expect(by['analytics'].pending).toHaveLength(ANALYTICS_MIGRATIONS.length);
  });
});
