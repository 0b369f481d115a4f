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
 */
export function usePlatformOnPrivateNats(): PlatformOnPrivateNats {
  const platform = {} as PlatformOnPrivateNats;
  beforeAll(async () => {
    platform.nats = await PrivateNats.start();
    platform.stack = await PlatformStack.start({ NATS_URL: platform.nats.url });
  });
  afterAll(async () => {
    await platform.stack?.close();
    await platform.nats?.stop();
  });
  return platform;
}
