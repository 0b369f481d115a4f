import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Production's Redis settings, the one source (deploy/README.md § Production). */
export const PRODUCTION_CONF = join(
  __dirname,
  '..',
  '..',
  '..',
  'deploy',
  'redis',
  'production.conf',
);

/** The directives of {@link PRODUCTION_CONF}: `{ appendonly: 'yes', … }`. */
export function productionRedisSettings(): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const line of readFileSync(PRODUCTION_CONF, 'utf8').split('\n')) {
    const text = line.trim();
    if (!text || text.startsWith('#')) continue;
    const [name, ...value] = text.split(/\s+/);
    settings[name] = value.join(' ');
  }
  return settings;
}
