import { PrivateNats } from './private-nats.js';
import { PrivateRedis } from './private-redis.js';
import { PlatformStack } from './stack.js';

/** A platform whose Redis (and NATS) the test can stop, restart empty, flush or freeze. */
export interface PlatformOnPrivateRedis {
  redis: PrivateRedis;
  /** Present with `{ nats: true }`: read models can be held back by killing it. */
  nats?: PrivateNats;
  stack: PlatformStack;
}

/**
 * Declares, in the calling `describe`, a {@link PlatformStack} on a {@link PrivateRedis} of its
 * own (and a {@link PrivateNats} with `nats: true`), for the tests of Redis outages: services
 * mode only. `beforeAll` starts them and fills in the returned object (read its fields inside
 * tests and hooks, not while declaring), `afterAll` closes the stack, then stops the servers.
 */
export function usePlatformOnPrivateRedis(
  options: { nats?: boolean; env?: Record<string, string> } = {},
): PlatformOnPrivateRedis {
  const platform = {} as PlatformOnPrivateRedis;
  beforeAll(async () => {
    platform.redis = await PrivateRedis.start();
    if (options.nats) platform.nats = await PrivateNats.start();
    platform.stack = await PlatformStack.start({
      ...options.env,
      REDIS_URL: platform.redis.url,
      ...(platform.nats ? { NATS_URL: platform.nats.url } : {}),
    });
  });
  afterAll(async () => {
    await platform.nats?.resume(); // a stopped NATS would hold the services' shutdown
    await platform.stack?.close();
    await platform.redis?.stop();
    await platform.nats?.stop();
  });
  return platform;
}
