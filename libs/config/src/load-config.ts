import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type z } from 'zod';

/** Thrown when the environment does not satisfy a service's configuration schema. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

let dotenvLoaded = false;

/**
 * Loads `.env` from the working directory into `process.env` once (existing variables win), with
 * Node's own parser (`process.loadEnvFile`, Node ≥ 20.12).
 */
export function loadDotenv(path = resolve(process.cwd(), '.env')): void {
  if (dotenvLoaded) return;
  dotenvLoaded = true;
  if (existsSync(path)) process.loadEnvFile(path);
}

/**
 * Parses `env` with `schema`. On failure throws a {@link ConfigError} whose message is one line
 * naming every offending variable, e.g.
 * `Invalid configuration: AUTH_PORT: expected an integer 1-65535 (got "abc")`.
 */
export function loadConfig<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.');
    const raw = env[name];
    const got =
      raw === undefined ? 'missing' : `got ${JSON.stringify(secretLike(name) ? '***' : raw)}`;
    return `${name}: ${issue.message} (${got})`;
  });
  throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
}

function secretLike(name: string): boolean {
  return /KEY|SECRET|TOKEN|PASSWORD/i.test(name);
}
