import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { WORKSPACE_DIR } from './support/packed-sdk.js';
import { compileProblems, STRICT_APP_OPTIONS } from './support/readme-blocks.js';

/**
 * The OpenAPI document is generator-neutral (docs/decisions.md, "Client SDK generator"): a
 * second mainstream generator, @hey-api/openapi-ts (pinned in package.json), makes a whole
 * client of docs/openapi.json — types, one function per operation, its fetch client — and that
 * client, used the way its documentation shows, compiles under `tsc --strict`.
 */
let out: string;
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'hey-api-'));
}, 10_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** @hey-api/openapi-ts needs Node ≥ 22.18: the workspace's own Node (npm's `node` package). */
function nodeBinary(): string {
  const own = join(WORKSPACE_DIR, 'node_modules', '.bin', 'node');
  return existsSync(own) ? own : process.execPath;
}

/** A program written against the generated client, as its documentation shows. */
const USAGE = `
import { client } from './client/client.gen.js';
import {
  usersControllerRegister,
  transactionsControllerTransact,
  transactionsControllerHistory,
  userSettingsControllerUpdate,
} from './client/index.js';

client.setConfig({ baseUrl: 'https://api.example.com', headers: { 'Api-Key': 'app-key' } });

export async function journey(address: string): Promise<number> {
  const registered = await usersControllerRegister({
    body: { username: 'ada@example.com', password: 'correct horse battery' },
  });
  if (registered.error) return registered.response?.status ?? 0;
  const moved = await transactionsControllerTransact({
    body: {
      transaction: { from_wallet: address, to_wallet: address, from_asset: 'CREDITS', to_asset: 'USD', amount: 1 },
    },
    headers: { 'Idempotency-Key': 'k-1' },
  });
  if (moved.error) {
    const code: string | undefined = moved.error.errors?.[0]?.code;
    return code === 'INSUFFICIENT_FUNDS' ? 422 : 400;
  }
  const history = await transactionsControllerHistory({
    path: { addressHash: address },
    query: { page: 1, per_page: 100 },
  });
  await userSettingsControllerUpdate({ body: { theme: 'dark' } });
  return (moved.data?.transaction.amount ?? 0) + (history.data?.meta.total_count ?? 0);
}
`;

describe('a second generator (@hey-api/openapi-ts) on docs/openapi.json', () => {
  it('generates a client of every operation', () => {
    execFileSync(
      nodeBinary(),
      [
        join(WORKSPACE_DIR, 'node_modules', '@hey-api', 'openapi-ts', 'bin', 'run.js'),
        '--input',
        join(WORKSPACE_DIR, 'docs', 'openapi.json'),
        '--output',
        join(out, 'client'),
        '--silent',
        '--no-log-file',
      ],
      { cwd: out, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(readdirSync(join(out, 'client')).sort()).toEqual(
      expect.arrayContaining(['client.gen.ts', 'index.ts', 'sdk.gen.ts', 'types.gen.ts']),
    );
  }, 120_000);

  it('compiles, with a program using it, under tsc --strict', () => {
    writeFileSync(join(out, 'usage.ts'), USAGE);
    const files = [join(out, 'usage.ts'), ...tsFiles(join(out, 'client'))];
    const problems = compileProblems(
      files,
      {
        ...STRICT_APP_OPTIONS,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
      },
      (file, line) => `${file.slice(out.length + 1)}:${line + 1}`,
    );
    expect(problems).toEqual([]);
  }, 180_000);
});

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? tsFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}
