import type { TxHost } from '@wp/persistence';
import type { EntityManager } from 'typeorm';
import { RevocationList } from './revocation-list.js';
import { RevocationStore } from './stores/revocation.store.js';

/** A store whose announcements reach subscribers `delayMs` after they are sent. */
class SlowChannel extends RevocationStore {
  private readonly subscribers = new Set<(message: string) => void>();
  constructor(private readonly delayMs: number) {
    super();
  }
  async deny(_kind: string, _id: string, _ttl: number, announcement: string): Promise<void> {
    await this.announce(announcement);
  }
  isDenied(): Promise<boolean> {
    return Promise.resolve(false);
  }
  restore(): Promise<void> {
    return Promise.resolve();
  }
  announce(message: string): Promise<void> {
    // Unref'd: a delivery still pending when the file ends (the 60 s one) must not keep jest's
    // process alive until it fires.
    setTimeout(() => this.subscribers.forEach((deliver) => deliver(message)), this.delayMs).unref();
    return Promise.resolve();
  }
  subscribe(onMessage: (message: string) => void): Promise<() => Promise<void>> {
    this.subscribers.add(onMessage);
    return Promise.resolve(() => {
      this.subscribers.delete(onMessage);
      return Promise.resolve();
    });
  }
}

/** The writer's transaction: the journal insert is all a revocation asks of it. */
const txHost = {
  isTransactionActive: () => true,
  tx: { query: () => Promise.resolve([]) } as unknown as EntityManager,
} as unknown as TxHost;

/**
 * A revocation goes on (to its commit and answer) once its announcement is back through the
 * channel, so the processes that remembered "not revoked" have been told before the client
 * hears of the revocation (docs/architecture.md § Identity and access, "Revocation").
 */
describe('RevocationList waits for its own announcement', () => {
  const started: RevocationList[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((list) => list.onApplicationShutdown()));
  });
  const start = async (store: RevocationStore) => {
    const list = new RevocationList(store, undefined, undefined, txHost);
    await list.onModuleInit();
    started.push(list);
    return list;
  };

  it('answers only after the announcement came back', async () => {
    const list = await start(new SlowChannel(20));
    const begin = performance.now();
    await list.revokeSession('sid-1', 60);
    const took = performance.now() - begin;
    expect(took).toBeGreaterThanOrEqual(15);
    expect(took).toBeLessThan(245); // the echo, not the 250 ms wait
  });

  it('goes on after 250 ms when the announcement does not come back', async () => {
    const list = await start(new SlowChannel(60_000));
    const begin = performance.now();
    await list.revokeToken('jti-1', Date.now() / 1000 + 60);
    expect(performance.now() - begin).toBeGreaterThanOrEqual(245);
  });
});
