import { RevocationList } from './revocation-list.js';
import { RevocationStore } from './stores/revocation.store.js';

/** A store that answers "not revoked" and keeps nothing (this test is about process memory). */
class NothingRevoked extends RevocationStore {
  deny(): Promise<void> {
    return Promise.resolve();
  }
  isDenied(): Promise<boolean> {
    return Promise.resolve(false);
  }
  restore(): Promise<void> {
    return Promise.resolve();
  }
  announce(): Promise<void> {
    return Promise.resolve();
  }
  subscribe(): Promise<() => Promise<void>> {
    return Promise.resolve(() => Promise.resolve());
  }
}

describe('RevocationList memory (docs/operations.md § Memory over time)', () => {
  it('holds remembered answers for about one token lifetime, not for every token it saw', () => {
    const list = new RevocationList(new NothingRevoked());
    const memory = list as unknown as {
      remember: (jti: string, sid: string, expiresAt: number) => void;
      notRevoked: Map<string, unknown>;
      bySession: Map<string, Set<string>>;
    };
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    try {
      for (let i = 0; i < 50; i++) memory.remember(`jti-${i}`, `sid-${i % 5}`, now / 1000 + 60);
      expect(memory.notRevoked.size).toBe(50);
      clock.mockReturnValue(now + 61_000); // all 50 tokens have expired
      memory.remember('jti-new', 'sid-new', (now + 61_000) / 1000 + 60);
      expect(memory.notRevoked.size).toBe(1);
      expect([...memory.bySession.keys()]).toEqual(['sid-new']);
    } finally {
      clock.mockRestore();
    }
  });
});
