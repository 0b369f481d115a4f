import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_DIR, packSdk, WORKSPACE_DIR, type PackedSdk } from './support/packed-sdk.js';
import { compileProblems, STRICT_APP_OPTIONS, typescriptBlocks } from './support/readme-blocks.js';

/**
 * The SDK as its users get it (libs/client/README.md; docs/api-documentation.md § Client SDK):
 * built and packed with `npm pack`, installed into a scratch project.
 */
let packed: PackedSdk;
beforeAll(() => {
  packed = packSdk();
}, 300_000);
afterAll(() => packed?.remove());

/**
 * What the README blocks may take as given — the values an application has at hand — and
 * nothing the blocks themselves should define. `sdk` is the client of the Quick start.
 */
const PRELUDE = `
declare const API_KEY: string;
declare const ADMIN_ACCESS: string;
declare const email: string;
declare const password: string;
declare const code: string;
declare const etag: string;
declare const organizationId: number;
declare const projectId: number;
declare const walletAddress: string;
declare const otherWalletAddress: string;
declare const sdk: import('@workspace-platform/client').WorkspacePlatformClient;
`;

/** Only these may be in the tarball: the manifest, the README, the two builds and the types. */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^dist\/schema\.d\.ts$/,
  /^dist\/(esm|cjs)\/package\.json$/,
  /^dist\/(esm|cjs)\/[a-z-]+\.(js|d\.ts)$/,
];

describe('npm pack of @workspace-platform/client', () => {
  it('holds the types and the ESM and CJS entry points, and nothing else (no src, specs, scripts, maps)', () => {
    const paths = packed.report.files.map((f) => f.path).sort();
    expect(paths.filter((p) => !ALLOWED.some((pattern) => pattern.test(p)))).toEqual([]);
    for (const entry of [
      'dist/esm/index.js',
      'dist/esm/index.d.ts',
      'dist/cjs/index.js',
      'dist/cjs/index.d.ts',
      'dist/schema.d.ts',
      'README.md',
    ]) {
      expect(paths).toContain(entry);
    }
    expect(paths.some((p) => /spec|test|scripts|src\//.test(p))).toBe(false);
    // The OpenAPI types are there once, shared by both builds.
    const large = packed.report.files.filter((f) => f.size > 64 * 1024).map((f) => f.path);
    expect(large).toEqual(['dist/schema.d.ts']);
  });

  const probe = (importer: string) => `
    const sdk = new WorkspacePlatformClient({
      baseUrl: 'http://platform.test',
      apiKey: 'k',
      retry: false,
      fetch: async (request) =>
        request.url.endsWith('/wallets')
          ? new Response(JSON.stringify({ data: [{ address_hash: '0xab' }] }), {
              status: 200,
              headers: { 'content-type': 'application/json' },
            })
          : new Response(JSON.stringify({ errors: [{ code: 'NOT_FOUND', title: 'Not found' }] }), {
              status: 404,
              headers: { 'content-type': 'application/json', 'x-request-id': 'r-1' },
            }),
    });
    const wallets = await sdk.listWallets();
    const error = await sdk.getOrganization(7).catch((e) => e);
    console.log(JSON.stringify({
      entry: ${importer},
      wallets,
      error: { isError: isPlatformApiError(error), status: error.status, code: error.code, requestId: error.requestId },
    }));`;

  it.each([
    [
      'import',
      'esm.mjs',
      `import { WorkspacePlatformClient, isPlatformApiError } from '@workspace-platform/client';
       ${probe("import.meta.resolve('@workspace-platform/client')")}`,
      /dist\/esm\/index\.js$/,
    ],
    [
      'require',
      'cjs.cjs',
      `const { WorkspacePlatformClient, isPlatformApiError } = require('@workspace-platform/client');
       (async () => { ${probe("require.resolve('@workspace-platform/client')")} })();`,
      /dist\/cjs\/index\.js$/,
    ],
  ])('loads with %s in a scratch project and calls the API', (_, file, source, entry) => {
    writeFileSync(join(packed.app, file), source);
    const output = execFileSync(process.execPath, [file], { cwd: packed.app, encoding: 'utf8' });
    const result = JSON.parse(output) as { entry: string; wallets: unknown; error: unknown };
    expect(result.entry).toMatch(entry);
    expect(result.wallets).toEqual({ data: [{ address_hash: '0xab' }] });
    expect(result.error).toEqual({
      isError: true,
      status: 404,
      code: 'NOT_FOUND',
      requestId: 'r-1',
    });
  });
});

describe('every TypeScript block of the READMEs compiles under --strict against the packed SDK', () => {
  const readmes = [join(CLIENT_DIR, 'README.md'), join(WORKSPACE_DIR, 'README.md')];
  const blocks = readmes.flatMap((readme) => typescriptBlocks(readme, WORKSPACE_DIR));

  it('finds blocks in both READMEs', () => {
    expect(blocks.filter((b) => b.file === 'libs/client/README.md').length).toBeGreaterThan(5);
    expect(blocks.filter((b) => b.file === 'README.md').length).toBeGreaterThan(0);
  });

  it('compiles them with the real typescript package (strict, Node ESM resolution, its declarations checked)', () => {
    writeFileSync(join(packed.app, 'prelude.d.ts'), PRELUDE);
    const files = blocks.map((block, i) => {
      const path = join(packed.app, `block-${i}.ts`);
      writeFileSync(path, `${block.code}\nexport {};\n`);
      return path;
    });
    // A CommonJS consumer gets the same types through the `require` condition.
    const cjs = join(packed.app, 'require-types.cts');
    writeFileSync(
      cjs,
      "import client = require('@workspace-platform/client');\n" +
        "const sdk: client.WorkspacePlatformClient = new client.WorkspacePlatformClient({ baseUrl: 'http://x', apiKey: 'k' });\n" +
        'export = sdk;\n',
    );
    const problems = compileProblems(
      [join(packed.app, 'prelude.d.ts'), ...files, cjs],
      STRICT_APP_OPTIONS,
      (file, line) => {
        const index = files.indexOf(file);
        if (index === -1) return `${file}:${line + 1}`;
        const block = blocks[index];
        return `${block.file}:${block.firstLine + line} (block at ${block.where})`;
      },
    );
    expect(problems).toEqual([]);
  });
});
