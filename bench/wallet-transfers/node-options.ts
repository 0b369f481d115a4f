// NODE_OPTIONS for a wallet-transfers child process, with the CPU-profile preload under --profile.
import { join } from 'node:path';

/** `NODE_OPTIONS` (and the profiler preload with `--profile`) for a child process. */
export function nodeOptions(
  options: string,
  profileDir: string,
  name: string,
): Record<string, string> {
  const all = profileDir
    ? `${options} --require ${join(__dirname, '..', 'support', 'cpu-profile.js')}`.trim()
    : options;
  return {
    ...(all ? { NODE_OPTIONS: all } : {}),
    ...(profileDir ? { BENCH_PROFILE_DIR: profileDir, BENCH_PROFILE_NAME: name } : {}),
  };
}
