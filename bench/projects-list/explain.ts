// EXPLAIN (ANALYZE, BUFFERS) of the list SQL the repository generates for a projects-list scenario.
import type { Client } from 'pg';
import type { Seeded } from '../support/projects-seed.js';
import { listSql } from './requests.js';
import type { Scenario } from './scenarios.js';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** EXPLAIN (ANALYZE, BUFFERS) of the generated list SQL, best of 5 (warm); printable lines. */
export async function explain(
  db: Client,
  s: Seeded,
  scenario: Scenario,
  name: string,
): Promise<string[]> {
  const { sql, params } = await listSql(s, scenario);
  let best: { Plan: PlanNode; 'Planning Time': number; 'Execution Time': number } | undefined;
  for (let i = 0; i < 5; i++) {
    const { rows } = await db.query<{ 'QUERY PLAN': [typeof best] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`,
      params,
    );
    const plan = rows[0]['QUERY PLAN'][0]!;
    if (!best || plan['Execution Time'] < best['Execution Time']) best = plan;
  }
  const textRows = await db.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN (ANALYZE, COSTS OFF) ${sql}`,
    params,
  );
  const text = textRows.rows.map((r) => `      ${r['QUERY PLAN']}`);
  const scans: string[] = [];
  const walk = (node: PlanNode) => {
    if (node['Relation Name']) {
      scans.push(
        `${node['Node Type']} on ${node['Relation Name']}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}` +
          ` (rows ${node['Actual Rows']} × ${node['Actual Loops']})`,
      );
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(best!.Plan);
  const seq = scans.filter((x) => x.startsWith('Seq Scan'));
  return [
    `  ${name} (${scenario.caller.toUpperCase()}): top node ${best!.Plan['Node Type']}, ` +
      `planning ${best!['Planning Time'].toFixed(3)} ms, execution ${best!['Execution Time'].toFixed(3)} ms, ` +
      `${seq.length ? `SEQ SCANS: ${seq.length}` : 'no sequential scan'}`,
    ...scans.map((x) => `    ${x}`),
    '    plan:',
    ...text,
  ];
}
