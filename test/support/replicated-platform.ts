import { PlatformStack } from './stack.js';

/** A platform with a second process of org and of wallet (as two replicas in Kubernetes). */
export interface ReplicatedPlatform {
  stack: PlatformStack;
  /** Base URL of the second org process (a request's `baseUrl`). */
  orgB: string;
  /** Base URL of the second wallet process. */
  walletB: string;
}

/**
 * Declares, in the calling `describe`, a {@link PlatformStack} with a second org and a second
 * wallet process sharing its databases, Redis and NATS: `beforeAll` starts them and fills in the
 * returned object (read its fields inside tests, not while declaring), `afterAll` closes all.
 */
export function useReplicatedPlatform(): ReplicatedPlatform {
  const platform = {} as ReplicatedPlatform;
  beforeAll(async () => {
    platform.stack = await PlatformStack.start();
    platform.orgB = await platform.stack.startReplica('org');
    platform.walletB = await platform.stack.startReplica('wallet');
  });
  afterAll(() => platform.stack?.close());
  return platform;
}
