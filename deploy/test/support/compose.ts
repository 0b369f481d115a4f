import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO } from './manifests.js';

export const COMPOSE_FILE = join(REPO, 'docker-compose.yml');

/** A compose service, as far as the checks read it. */
export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  healthcheck?: { test: string[] | string };
  depends_on?: Record<string, { condition: string }> | string[];
  ports?: (string | { host_ip?: string; published?: string | number })[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

/** docker-compose.yml parsed as compose reads it (YAML 1.1 merge keys `<<` included). */
export function readComposeFile(): ComposeFile {
  return parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as ComposeFile;
}

/** Debian's `docker-compose` (v1) or Docker's `docker compose` (v2), whichever answers. */
export function composeCommand(): string[] | null {
  for (const command of [['docker-compose'], ['docker', 'compose']]) {
    const r = spawnSync(command[0], [...command.slice(1), 'version'], { encoding: 'utf8' });
    if (r.status === 0) return command;
  }
  return null;
}

/** `<compose> config`: the file as compose itself resolves it, or its error output. */
export function composeConfig(
  command: string[],
): { ok: true; config: ComposeFile } | { ok: false; error: string } {
  const r = spawnSync(command[0], [...command.slice(1), '-f', COMPOSE_FILE, 'config'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  if (r.status !== 0) return { ok: false, error: `${r.stderr}${r.stdout}` };
  return { ok: true, config: parse(r.stdout) as ComposeFile };
}

/** A service's environment as a map of strings (compose accepts a map or `KEY=value` lines). */
export function serviceEnv(service: ComposeService): Record<string, string> {
  const env: Record<string, string> = {};
  const source = service.environment ?? {};
  if (Array.isArray(source)) {
    for (const line of source) {
      const at = line.indexOf('=');
      if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
    }
    return env;
  }
  for (const [key, value] of Object.entries(source)) {
    if (value !== null && value !== undefined) env[key] = String(value);
  }
  return env;
}
