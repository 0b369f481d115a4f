// Requests of the projects-list bench: per-caller operations, and the check of an answer against
// the repository's SQL.
import type { Client } from 'pg';
import type { TxHost } from '@wp/persistence';
import { ProjectsRepository } from '../../apps/org/src/modules/tenants/projects.repository.js';
import { type httpPool, request, type Operation } from '../lib/load.js';
import type { BenchOptions } from '../lib/options.js';
import type { Seeded } from '../support/projects-seed.js';
import type { Caller, Scenario } from './scenarios.js';

export interface Ctx {
  pool: ReturnType<typeof httpPool>;
  apiKey: string;
  options: BenchOptions;
  seeded: Seeded;
  tokens: Record<Caller, string>;
}

function headers(ctx: Ctx, caller: Caller): Record<string, string> {
  return { 'api-key': ctx.apiKey, authorization: `Bearer ${ctx.tokens[caller]}` };
}

export function opFor(ctx: Ctx, caller: Caller, path: string, expected: number): Operation {
  const h = headers(ctx, caller);
  return async () => {
    const res = await request(ctx.pool, { path, headers: h, raw: true });
    return res.status === expected || `status ${res.status}`;
  };
}

/**
 * One request through the gateway, compared with the repository's SQL run directly: same ids in
 * the same order (so the EXPLAIN below is of the query that answered).
 */
export async function checkAnswer(
  ctx: Ctx,
  db: Client,
  scenario: Scenario,
  path: string,
): Promise<{ count: number; bytes: number }> {
  const res = await ctx.pool.request({
    method: 'GET',
    path,
    headers: headers(ctx, scenario.caller),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}: ${text}`);
  const ids = (JSON.parse(text) as { data: { id: string }[] }).data.map((p) => p.id);
  const { sql, params } = await listSql(ctx.seeded, scenario);
  const { rows } = await db.query<{ id: number }>(sql, params);
  const expected = rows.map((r) => String(r.id));
  if (ids.join() !== expected.join()) {
    throw new Error(
      `GET ${path}: ${ids.length} ids differ from the repository SQL (${expected.length})`,
    );
  }
  return { count: ids.length, bytes: Buffer.byteLength(text) };
}

/** The SQL and parameters `ProjectsRepository.list` sends for a scenario. */
export async function listSql(
  s: Seeded,
  scenario: Scenario,
): Promise<{ sql: string; params: unknown[] }> {
  let captured: { sql: string; params: unknown[] } | undefined;
  const capture = {
    tx: {
      query: (sql: string, params: unknown[]) => {
        captured = { sql, params };
        return Promise.resolve([]);
      },
    },
  } as unknown as TxHost;
  const callerId = scenario.caller === 'admin' ? s.adminId : s.memberId;
  const role = scenario.caller === 'admin' ? 'ADMIN' : 'MEMBER';
  await new ProjectsRepository(capture).list(s.organizationId, callerId, role, scenario.filter);
  return captured!;
}
