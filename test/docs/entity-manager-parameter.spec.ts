import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Linter, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';

/**
 * No `EntityManager` parameter outside the documented exceptions (docs/decisions.md
 * § Transactions in the request context, "What stays explicit, and why"): the ESLint rule
 * `wp/no-entity-manager-parameter` (scripts/eslint-rules/) that `npm run lint` runs on
 * apps/*\/src and libs/*\/src, and its exception list in eslint.config.mjs.
 */
const ROOT = join(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the rule is a CommonJS script
const { rule } = require('../../scripts/eslint-rules/no-entity-manager-parameter.js') as {
  rule: Rule.RuleModule;
};

function reports(code: string): { line: number; message: string }[] {
  const linter = new Linter();
  return linter
    .verify(
      code,
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { wp: { rules: { 'no-entity-manager-parameter': rule } } },
        rules: { 'wp/no-entity-manager-parameter': 'error' },
      },
      'apps/org/src/example.ts',
    )
    .map((m) => ({ line: m.line, message: m.message }));
}

/** The paths listed in `ENTITY_MANAGER_EXCEPTIONS` of eslint.config.mjs. */
function exceptions(): string[] {
  const config = readFileSync(join(ROOT, 'eslint.config.mjs'), 'utf8');
  const list = /export const ENTITY_MANAGER_EXCEPTIONS = \[([\s\S]*?)\];/.exec(config);
  if (!list) throw new Error('ENTITY_MANAGER_EXCEPTIONS not found in eslint.config.mjs');
  return [...list[1].matchAll(/^\s*'([^']+)',/gm)].map((m) => m[1]);
}

describe('wp/no-entity-manager-parameter', () => {
  it('reports every way of taking a manager as a parameter', () => {
    const code = [
      "import { DataSource, type EntityManager } from 'typeorm';",
      "import { EntityManager as Manager } from 'typeorm';",
      'export function plain(manager: EntityManager) {}',
      'export const arrow = async (m?: EntityManager | DataSource) => m;',
      'export class Repo {',
      '  constructor(private readonly manager: EntityManager) {}',
      '  find(id: number, manager: Manager = undefined as never) {}',
      '}',
      'export function rebuild(read: (manager: EntityManager) => Promise<void>) {}',
      'export interface Options { lock?: boolean; manager?: EntityManager }',
      'export function many(...managers: EntityManager[]) {}',
    ].join('\n');
    expect(reports(code).map((r) => r.line)).toEqual([3, 4, 6, 7, 9, 10, 11]);
    expect(reports(code)[0].message).toContain("'manager' is typed EntityManager");
  });

  it('leaves alone what reads the host, returns a manager or takes a DataSource', () => {
    const code = [
      "import { DataSource, type EntityManager } from 'typeorm';",
      "import { activeTransaction, type TxHost } from '@wp/persistence';",
      'export function current(txHost: TxHost): EntityManager { return activeTransaction(txHost); }',
      'export function purge(dataSource: DataSource, get: () => EntityManager) {}',
      'export class EntityManagerLike {}',
      'export function other(m: EntityManagerLike) {}',
    ].join('\n');
    expect(reports(code)).toEqual([]);
  });

  it('lists only exceptions that exist and still need the manager', () => {
    const listed = exceptions();
    expect(listed.length).toBeGreaterThan(0);
    for (const file of listed) {
      expect([file, existsSync(join(ROOT, file))]).toEqual([file, true]);
      // An exception that no longer takes a manager goes off the list (and out of the docs).
      const found = reports(readFileSync(join(ROOT, file), 'utf8')).length;
      expect([file, found > 0]).toEqual([file, true]);
    }
  });
});
