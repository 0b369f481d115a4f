import { waitFor } from '@wp/testing';
import { PrivateNats } from './private-nats.js';
import { PlatformStack } from './stack.js';

/** A platform whose NATS the test can kill and resume: services mode only. */
export interface PlatformOnPrivateNats {
  nats: PrivateNats;
  stack: PlatformStack;
}

/**
 * Declares, in the calling `describe`, a {@link PlatformStack} on a {@link PrivateNats} of its
 * own, for the tests of NATS outages (kill, then resume): `beforeAll` starts both and fills in
 * the returned object (read its fields inside tests and hooks, not while declaring), `afterAll`
 * closes the stack, then stops NATS.
 * @param env environment variables over the test environment's (`NATS_URL` is the private one)
 */
export function usePlatformOnPrivateNats(env: Record<string, string> = {}): PlatformOnPrivateNats {
  const platform = {} as PlatformOnPrivateNats;
  beforeAll(async () => {
    platform.nats = await PrivateNats.start();
    platform.stack = await PlatformStack.start({ ...env, NATS_URL: platform.nats.url });
  });
  afterAll(async () => {
    await platform.stack?.close();
    await platform.nats?.stop();
  });
  return platform;
}

/**
 * How soon after NATS accepts connections again an event that waited in an outbox reaches its
 * consumer, at most (docs/operations.md § NATS outages): the clients reconnect within a few
 * hundred ms and the outbox relay publishes at once on reconnect.
 */
export const NATS_RECOVERY_MS = 2000;

/**
 * Resumes the platform's NATS and measures how long, from the moment it listens again, until
 * `arrived()` holds (polled every 50 ms, 20 s at most).
 * @returns milliseconds
 */
export async function timeToRecover(
  platform: PlatformOnPrivateNats,
  arrived: () => Promise<boolean>,
): Promise<number> {
  await platform.nats.resume();
  const resumed = Date.now();
  await waitFor(arrived, {
    timeoutMs: 20_000,
    intervalMs: 50,
    what: 'recovery after NATS resumed',
  });
  return Date.now() - resumed;
}
