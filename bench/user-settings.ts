import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { hashApiKey } from '@wp/security';
import { signAccessToken, TestEnvironment } from '@wp/testing';
import { Redis } from 'ioredis';
import { Pool as PgPool } from 'pg';
import { Pool } from 'undici';
import { orgDataSource } from '../apps/org/src/database/data-source.js';
import { type BenchRequest, closedLoop, httpOperation, openLoop } from './lib/load.js';
import { median } from './lib/stats.js';
import { ServiceProcess } from './support/processes.js';

/** One line for `npm run bench -- --list` (read from this file without loading it). */
export const description =
  'GET /user_settings (org service, with and without the gateway): req/s, p50/p99';

/**
 * `GET /user_settings` benchmark (results in docs/org.md § User settings, Benchmark).
 *
 * Starts the org service and a gateway in front of it as child processes on a fresh database
 * and seeds one user in `--organizations` organizations × `--projects` projects straight in
 * SQL: OWNER of half the organizations (sees every project), MEMBER of the other half with an
 * explicit role on every other project and denied access to one, 5 pins per organization, a
 * settings row; other members in every organization so the membership tables are not trivially
 * small. Then, per run and per target (`gateway`: `/v1/api/user_settings` through the gateway;
 * `org`: the org service directly): a closed loop (`--connections` clients back to back:
 * requests/s) and an open loop at `--open-fraction` of that rate (latency p50/p99 measured from
 * each request's due time: no coordinated omission), for the plain settings and for
 * `includes=dashboard`. Prints medians over `--runs`.
 *
 *   npm run bench -- user-settings [--runs 3] [--duration 5] [--connections 16]
 *                                  [--organizations 20] [--projects 50] [--target both]
 */
export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: 'string', default: '3' },
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '16' },
      organizations: { type: 'string', default: '20' },
      projects: { type: 'string', default: '50' },
      'open-fraction': { type: 'string', default: '0.7' },
      /** `gateway`, `org` (directly) or `both`. */
      target: { type: 'string', default: 'both' },
    },
  });
  const runs = Number(values.runs);
  const seconds = Number(values.duration);
  const connections = Number(values.connections);
  const shape = { organizations: Number(values.organizations), projects: Number(values.projects) };
  const fraction = Number(values['open-fraction']);
  const targets = values.target === 'both' ? ['gateway', 'org'] : [values.target];

  const env = new TestEnvironment({ LOG_LEVEL: 'warn', GATEWAY_RATE_LIMIT: '0' });
  const stopping: (() => Promise<void>)[] = [];
  try {
    log(`preparing: database, org + gateway, ${shape.organizations} × ${shape.projects} seed`);
    const orgDb = await env.prepareDatabase('org', orgDataSource);
    await env.vouchFor(['auth']); // no auth: the bench signs its tokens and registers its key
    const db = new PgPool({ connectionString: orgDb, max: 2 });
    stopping.push(() => db.end());
    const userId = randomUUID();
    const expected = await seed(db, userId, shape);
    const org = await ServiceProcess.start(
      'org',
      { ...env.env, ORG_HOST: '127.0.0.1' },
      'ORG_PORT',
    );
    stopping.push(() => org.stop());
    const gateway = await ServiceProcess.start(
      'gateway',
      { ...env.env, GATEWAY_HOST: '127.0.0.1', ORG_UPSTREAM_URL: org.url },
      'GATEWAY_PORT',
    );
    stopping.push(() => gateway.stop());
    const redis = new Redis(env.env['REDIS_URL'], { keyPrefix: env.env['REDIS_KEY_PREFIX'] });
    await redis.hset('api_keys', hashApiKey(env.keys.apiKey), 'bench');
    redis.disconnect();

    const headers = {
      'api-key': env.keys.apiKey,
      authorization: `Bearer ${await signAccessToken(env.keys.jwtPrivateKey, userId, {}, 3600)}`,
    };
    const scenarios: Record<string, () => BenchRequest> = {
      settings: () => ({ method: 'GET', path: '/v1/api/user_settings', headers }),
      dashboard: () => ({
        method: 'GET',
        path: '/v1/api/user_settings?includes=dashboard',
        headers,
      }),
    };
    const pools: Record<string, Pool> = {};
    for (const target of targets) {
      const pool = new Pool(target === 'org' ? org.url : gateway.url, {
        connections,
        pipelining: 1,
      });
      stopping.push(() => pool.close());
      pools[target] = pool;
      await check(pool, headers, expected);
    }

    const rows: Row[] = [];
    for (let run = 1; run <= runs; run++) {
      for (const target of targets) {
        for (const [name, next] of Object.entries(scenarios)) {
          const pool = pools[target];
          const op = httpOperation(pool, next);
          await closedLoop({ op, connections, durationMs: Math.min(2, seconds) * 1000 }); // warm-up
          const closed = await closedLoop({ op, connections, durationMs: seconds * 1000 });
          const open = await openLoop({
            op,
            rate: Math.max(1, closed.rate * fraction),
            durationMs: seconds * 1000,
          });
          rows.push({
            run,
            target,
            name,
            rate: closed.rate,
            offered: open.target,
            achieved: open.rate,
            p50: open.p50 ?? NaN,
            p99: open.p99 ?? NaN,
            errors: closed.errors + open.errors,
          });
          log(
            `run ${run} ${target.padEnd(7)} ${name.padEnd(9)}: ${closed.rate.toFixed(0)} req/s` +
              ` (errors ${closed.errors}); open loop at ${open.target.toFixed(0)}/s:` +
              ` p50 ${(open.p50 ?? NaN).toFixed(2)} ms p99 ${(open.p99 ?? NaN).toFixed(2)} ms` +
              ` (errors ${open.errors})`,
          );
        }
      }
    }
    report(rows, targets, Object.keys(scenarios), { runs, seconds, connections, fraction, shape });
    if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
  } finally {
    for (const stop of stopping.reverse()) await stop().catch(() => undefined);
    await env.cleanup();
  }
}

interface Row {
  run: number;
  target: string;
  name: string;
  rate: number;
  offered: number;
  achieved: number;
  p50: number;
  p99: number;
  errors: number;
}

interface Expected {
  organizations: number;
  projects: number;
}

/**
 * One user in `organizations` × `projects` (see {@link main}); returns how many organizations
 * and accessible projects `GET /user_settings` must show.
 */
async function seed(
  db: PgPool,
  userId: string,
  shape: { organizations: number; projects: number },
): Promise<Expected> {
  const others = Array.from({ length: 5 }, () => randomUUID());
  let accessible = 0;
  for (let o = 0; o < shape.organizations; o++) {
    const owner = o % 2 === 0;
    const { rows } = await db.query<{ id: number }>(
      'INSERT INTO organization (name) VALUES ($1) RETURNING id',
      [`Bench org ${o}`],
    );
    const orgId = rows[0].id;
    await db.query(
      `INSERT INTO organization_membership (organization_id, user_id, role)
       SELECT $1, u, r FROM unnest($2::uuid[], $3::text[]) AS t(u, r)`,
      [orgId, [userId, ...others], [owner ? 'OWNER' : 'MEMBER', ...others.map(() => 'MEMBER')]],
    );
    const { rows: projects } = await db.query<{ id: number }>(
      `INSERT INTO project (organization_id, name, is_default, created_by)
       SELECT $1, 'Project ' || i, i = 0, $2 FROM generate_series(0, $3 - 1) AS i
       RETURNING id`,
      [orgId, userId, shape.projects],
    );
    const ids = projects.map((p) => p.id).sort((a, b) => a - b);
    // the MEMBER's explicit roles: every other project, the first of them denied
    const mine = owner ? [] : ids.filter((_, i) => i % 2 === 0);
    if (mine.length > 0) {
      await db.query(
        `INSERT INTO project_membership (project_id, user_id, organization_id, role, access_denied)
         SELECT p, $2, $3, 'MEMBER', p = $4 FROM unnest($1::int[]) AS p`,
        [mine, userId, orgId, mine[0]],
      );
    }
    await db.query(
      `INSERT INTO project_membership (project_id, user_id, organization_id, role)
       SELECT p, u, $3, 'VIEWER' FROM unnest($1::int[]) AS p, unnest($2::uuid[]) AS u`,
      [ids, others, orgId],
    );
    const visible = owner ? ids : mine.slice(1);
    accessible += visible.length;
    await db.query(
      `INSERT INTO pinned_project (user_id, organization_id, project_id, position)
       SELECT $1, $2, p, ord - 1 FROM unnest($3::int[]) WITH ORDINALITY AS t(p, ord)`,
      [userId, orgId, visible.slice(0, 5)],
    );
  }
  await db.query(
    `INSERT INTO user_settings (user_id, client, theme, onboarding)
     VALUES ($1, 'web', 'dark', '{"sentinel_pass_discovered": true}')`,
    [userId],
  );
  await db.query('VACUUM ANALYZE');
  return { organizations: shape.organizations, projects: accessible };
}

/** The answer is the full sidebar before anything is measured. */
async function check(
  pool: Pool,
  headers: Record<string, string>,
  expected: Expected,
): Promise<void> {
  const res = await pool.request({ method: 'GET', path: '/v1/api/user_settings', headers });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET /user_settings: ${res.statusCode} ${text}`);
  const body = JSON.parse(text) as {
    sidebar: { organizations: { projects: unknown[]; pinned_items: unknown[] }[] };
  };
  const organizations = body.sidebar.organizations.length;
  const projects = body.sidebar.organizations.reduce((n, o) => n + o.projects.length, 0);
  if (organizations !== expected.organizations || projects !== expected.projects) {
    throw new Error(
      `unexpected sidebar: ${organizations} organizations, ${projects} projects ` +
        `(expected ${expected.organizations}, ${expected.projects})`,
    );
  }
  log(`sidebar ok: ${organizations} organizations, ${projects} projects, ${text.length} bytes`);
}

function report(
  rows: Row[],
  targets: string[],
  scenarios: string[],
  settings: {
    runs: number;
    seconds: number;
    connections: number;
    fraction: number;
    shape: { organizations: number; projects: number };
  },
): void {
  const lines = [
    '',
    `GET /user_settings; one user in ${settings.shape.organizations} organizations × ` +
      `${settings.shape.projects} projects; medians of ${settings.runs} runs of ${settings.seconds} s`,
    `(closed loop: ${settings.connections} connections; open loop at ` +
      `${Math.round(settings.fraction * 100)} % of the closed-loop rate; 2 shared cores)`,
    '',
    'target   request                       req/s  open req/s   p50 ms   p99 ms  errors',
  ];
  for (const target of targets) {
    for (const name of scenarios) {
      const mine = rows.filter((r) => r.target === target && r.name === name);
      const m = (f: (r: Row) => number) => median(mine.map(f)) ?? NaN;
      const request = name === 'dashboard' ? '?includes=dashboard' : '(settings + sidebar)';
      lines.push(
        `${target.padEnd(9)}${request.padEnd(26)}${m((r) => r.rate)
          .toFixed(0)
          .padStart(9)}` +
          `${m((r) => r.achieved)
            .toFixed(0)
            .padStart(12)}${m((r) => r.p50)
            .toFixed(2)
            .padStart(9)}` +
          `${m((r) => r.p99)
            .toFixed(2)
            .padStart(9)}${String(mine.reduce((n, r) => n + r.errors, 0)).padStart(8)}`,
      );
    }
  }
  lines.push('');
  process.stdout.write(lines.join('\n') + '\n');
}

function log(message: string): void {
  process.stderr.write(`[user-settings] ${message}\n`);
}
