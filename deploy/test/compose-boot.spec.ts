/** @needsServers redis nats: docker-compose.yml runs the apps in services mode */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { dropDatabase, ensureDatabase } from '@wp/persistence';
import { describeIf, TEST_SERVERS, TestEnvironment } from '@wp/testing';
import { Client } from 'pg';
import { AppProcess, becomesReady, freePort, rewriteForLocalServers } from './support/boot.js';
import { readComposeFile, serviceEnv } from './support/compose.js';
import { REPO } from './support/manifests.js';
import { APPS, SERVICES } from './support/required-env.js';

// Boots every app of docker-compose.yml as `node apps/<app>/dist/main.js` (needs `npm run
// build`) with exactly the environment compose gives it, pointed at this machine's PostgreSQL,
// Redis and NATS, and expects `GET /health/ready` to answer 200: the check that would have caught
// the wallet's missing WALLET_TRANSFER_CODE_SECRET. The rewrites, and only these: compose host
// names → 127.0.0.1; each app's listen port (and the gateway's upstream URLs) → a free port; the
// databases → fresh ones of this run; EVENTS_NAMESPACE and REDIS_KEY_PREFIX → this run's, so the
// shared servers' other users are never touched.
jest.setTimeout(240_000);

/** Whether the built code reads MIGRATE_ON_START (where, is the apps' business). */
const distDirs = ['apps', 'libs'].flatMap((root) =>
  readdirSync(join(REPO, root))
    .map((name) => join(REPO, root, name, 'dist'))
    .filter((dir) => existsSync(dir)),
);
const migratesOnStart =
  spawnSync('grep', ['-rlq', '--include=*.js', 'MIGRATE_ON_START', ...distDirs]).status === 0;

async function countMigrations(database: string): Promise<number> {
  const client = new Client({ connectionString: `${TEST_SERVERS.postgres}/${database}` });
  await client.connect();
  try {
    const result = await client.query<{ n: string }>('SELECT count(*) AS n FROM schema_migrations');
    return Number(result.rows[0].n);
  } finally {
    await client.end();
  }
}

const built = APPS.every((app) => existsSync(join(REPO, 'apps', app, 'dist', 'main.js')));
const compose = readComposeFile();

describeIf(
  built,
  'not built',
  'apps/*/dist',
)('docker-compose.yml environments boot the apps', () => {
  const isolation = new TestEnvironment({}, 'services');
  const databases: Record<string, string> = {};
  const ports: Record<string, number> = {};
  const processes: AppProcess[] = [];

  beforeAll(async () => {
    for (const service of SERVICES) {
      databases[`wp_${service}`] = `wp_deploy_${service}_${isolation.id}`;
      await ensureDatabase(`${TEST_SERVERS.postgres}/${databases[`wp_${service}`]}`);
    }
    for (const app of APPS) ports[app] = await freePort();
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    for (const name of Object.values(databases)) {
      await dropDatabase(`${TEST_SERVERS.postgres}/${name}`).catch(() => undefined);
    }
    await isolation.cleanup();
  });

  function environmentOf(app: (typeof APPS)[number]): Record<string, string> {
    const hosts: Record<string, number | null> = {
      postgres: 5432,
      redis: 6379,
      nats: 4222,
      mailpit: 1025,
      ...ports,
    };
    return {
      ...rewriteForLocalServers(serviceEnv(compose.services[app]), hosts, databases),
      [`${app.toUpperCase()}_PORT`]: String(ports[app]),
      [`${app.toUpperCase()}_HOST`]: '127.0.0.1',
      // On this machine the five apps share one host: any free port for each metrics listener.
      METRICS_PORT: '0',
      EVENTS_NAMESPACE: isolation.id,
      REDIS_KEY_PREFIX: `${isolation.id}:`,
    };
  }

  it('every app reaches ready, and the gateway routes to the services', async () => {
    // Until the built apps know MIGRATE_ON_START, apply the migrations first as the image can
    // (`node apps/<app>/dist/migrate.js`, same environment).
    for (const service of SERVICES) {
      if (migratesOnStart) continue;
      const migrate = new AppProcess(service, environmentOf(service), 'migrate.js');
      await migrate.exited;
      if (migrate.exitCode !== 0) throw new Error(`${service} migrate: ${migrate.output}`);
    }
    const started = SERVICES.map((s) => new AppProcess(s, environmentOf(s)));
    processes.push(...started);
    const gateway = new AppProcess('gateway', environmentOf('gateway'));
    processes.push(gateway);

    const results = await Promise.all(
      [...started, gateway].map(async (p) => {
        const ready = await becomesReady(
          `http://127.0.0.1:${ports[p.app]}/health/ready`,
          p,
          180_000,
        );
        return ready ? `${p.app}: ready` : `${p.app}: NOT ready\n${p.output.slice(-3000)}`;
      }),
    );
    expect(results.sort()).toEqual(APPS.map((a) => `${a}: ready`).sort());

    // Each service's database holds its schema: applied at start (or by migrate.js above).
    for (const service of SERVICES) {
      const applied = await countMigrations(databases[`wp_${service}`]);
      expect(`${service}: ${applied > 0}`).toBe(`${service}: true`);
    }

    // The gateway's compose upstream URLs (rewritten to the local ports) reach auth.
    const jwks = await fetch(`http://127.0.0.1:${ports.gateway}/v1/api/oauth/jwks.json`);
    expect(jwks.status).toBe(200);
    expect(((await jwks.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
  });
});

if (!built) {
  test('the apps are built (npm run build) so that they can be booted', () => {
    throw new Error('run `npm run build` first: this test starts apps/<app>/dist/main.js');
  });
}
