import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** libs/client, and the workspace root whose node_modules hold the SDK's dependency. */
export const CLIENT_DIR = join(__dirname, '..', '..');
export const WORKSPACE_DIR = join(CLIENT_DIR, '..', '..');

/** What `npm pack --json` says about the tarball. */
export interface PackReport {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

export interface PackedSdk {
  /** The tarball, as `npm publish` would upload it. */
  tarball: string;
  report: PackReport;
  /** A scratch project (`"type": "module"`) with the tarball installed in its node_modules. */
  app: string;
  remove(): void;
}

/**
 * Builds the SDK (scripts/build.js, as `npm pack` runs it through `prepack`) into a copy of
 * libs/client in a scratch folder, packs that copy with `npm pack`, and installs the tarball
 * into a scratch project: unpacked as npm would, its dependencies (openapi-fetch with its
 * type helpers, standardwebhooks with its two) linked from the workspace, since the tests run without the registry. Nothing
 * is written into the repository.
 */
export function packSdk(): PackedSdk {
  const stage = mkdtempSync(join(tmpdir(), 'packed-sdk-'));
  const source = join(stage, 'package');
  cpSync(CLIENT_DIR, source, {
    recursive: true,
    filter: (path) => !/[/\\](dist|node_modules)$/.test(path),
  });
  execFileSync(
    process.execPath,
    [join(CLIENT_DIR, 'scripts', 'build.js'), '--out', join(source, 'dist')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const [report] = JSON.parse(
    execFileSync(
      'npm',
      ['pack', source, '--json', '--ignore-scripts', '--pack-destination', stage],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    ),
  ) as PackReport[];
  const tarball = join(stage, report.filename);

  const app = join(stage, 'app');
  const modules = join(app, 'node_modules');
  const installed = join(modules, '@workspace-platform', 'client');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  for (const dependency of [
    'openapi-fetch',
    'openapi-typescript-helpers',
    'standardwebhooks',
    '@stablelib/base64',
    'fast-sha256',
  ]) {
    mkdirSync(dirname(join(modules, dependency)), { recursive: true });
    symlinkSync(join(WORKSPACE_DIR, 'node_modules', dependency), join(modules, dependency), 'dir');
  }
  writeFileSync(
    join(app, 'package.json'),
    '{ "name": "scratch-app", "private": true, "type": "module" }\n',
  );
  return {
    tarball,
    report: report,
    app,
    remove: () => rmSync(stage, { recursive: true, force: true }),
  };
}
