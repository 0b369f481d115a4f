import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { MigrationStatus } from '@wp/platform';

const SERVICES = ['auth', 'org', 'wallet', 'analytics'] as const;

/**
 * `migrations:status`: runs every service's own migration entry point with `--status`
 * (`apps/<service>/dist/migrate.js`, or `src/migrate.ts` through scripts/ts-register.js when the
 * CLI itself runs from sources) — each service knows its migrations; apps never import each
 * other — and collects their {@link MigrationStatus}. Databases are those of `env`
 * (`<SERVICE>_DATABASE_URL`).
 */
export async function migrationsStatus(
  env: Record<string, string | undefined>,
): Promise<MigrationStatus[]> {
  const fromSources = __filename.endsWith('.ts');
  const appsDir = join(__dirname, '..', '..');
  const root = join(appsDir, '..');
  return Promise.all(
    SERVICES.map(async (service) => {
      const entry = fromSources
        ? [
            '-r',
            join(root, 'scripts', 'ts-register.js'),
            join(appsDir, service, 'src', 'migrate.ts'),
          ]
        : [join(appsDir, service, 'dist', 'migrate.js')];
      if (!existsSync(entry[entry.length - 1])) {
        return { service, applied: [], pending: [], error: 'not built (npm run build)' };
      }
      try {
        const { stdout } = await promisify(execFile)(process.execPath, [...entry, '--status'], {
          env,
          cwd: root,
        });
        return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as MigrationStatus;
      } catch (error) {
        return { service, applied: [], pending: [], error: (error as Error).message };
      }
    }),
  );
}
