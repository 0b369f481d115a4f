import { appendFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A server the platform can run without (embedded mode holds their roles in PostgreSQL). */
export type OptionalServer = 'redis' | 'nats';

const NAMES: Record<OptionalServer, string> = { redis: 'Redis', nats: 'NATS' };
const ROOT = join(__dirname, '..', '..', '..');

/**
 * The servers this test run lacks: `TEST_MISSING_SERVERS` (comma-separated), set by the run's
 * global setup when neither the server nor a container engine answered (README § Tests).
 */
export function missingServers(): OptionalServer[] {
  return (process.env['TEST_MISSING_SERVERS'] ?? '')
    .split(',')
    .filter((s): s is OptionalServer => s === 'redis' || s === 'nats');
}

/**
 * `describe` when `run` holds, else `describe.skip` with the skip recorded (group and reason) for
 * the run's closing summary line (README § Tests): nothing is skipped without a stated reason.
 * @param group what the skipped part lacks or is bound to, e.g. `services mode only`
 * @param reason what the part tests, e.g. `NATS outage`
 */
export function describeIf(run: boolean, group: string, reason: string): jest.Describe {
  if (run) return describe;
  const skipped = ((title: string, fn: () => void) => {
    recordSkip(title, group, reason);
    describe.skip(title, fn);
  }) as jest.Describe;
  return Object.assign(skipped, describe);
}

/**
 * `describe` when Redis/NATS (those named) answer, else a skip named `no Redis/NATS: reason`:
 * for the parts of a file that test the Redis or JetStream transports themselves.
 */
export function describeWithServers(needs: OptionalServer[], reason: string): jest.Describe {
  const missing = missingServers();
  const lacking = needs.filter((s) => missing.includes(s));
  return describeIf(lacking.length === 0, `no ${missing.map((s) => NAMES[s]).join('/')}`, reason);
}

function recordSkip(part: string, group: string, reason: string): void {
  const file = process.env['TEST_SKIPS_FILE'];
  // The test environment (test-support/environment.js) skips this whole file and records that.
  if (!file || (globalThis as { __TEST_FILE_SKIPPED__?: boolean }).__TEST_FILE_SKIPPED__) return;
  const testFile = relative(ROOT, expect.getState().testPath ?? '');
  appendFileSync(file, `${JSON.stringify({ file: testFile, part, group, reason })}\n`);
}

/**
 * The group of parts that exercise what only services mode has (a NATS outage, a restart of
 * NATS): skipped in the embedded-mode run of the same file.
 */
export const SERVICES_ONLY = 'services mode only';
