import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { AnalyticsConfig } from '../../config/analytics.config.js';
import { ProjectKeyCache } from './project-key-cache.js';
import type { KeySnapshot, ProjectsRepository, StoredKey } from './projects.repository.js';

const sha256 = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The repository's reads, answering whatever the test puts in `next`. */
class FakeRepository {
  next: KeySnapshot = { readAt: new Date(), projectIds: [], keys: [] };
  changedSince(): Promise<KeySnapshot> {
    return Promise.resolve(this.next);
  }
  loadAll(): Promise<KeySnapshot> {
    return Promise.resolve(this.next);
  }
}

const pair = (projectId: number, n: number): StoredKey => ({
  publicKey: `pk-${projectId}-${n}`,
  projectId,
  secretKeySha256: sha256(`sk-${projectId}-${n}`),
  expiresAt: null,
});

describe('ProjectKeyCache (docs/operations.md § Memory over time)', () => {
  let repository: FakeRepository;
  let cache: ProjectKeyCache;
  const entries = () =>
    (cache as unknown as { byPublicKey: Map<string, { secretHash: Buffer }> }).byPublicKey;
  const read = async (projectIds: number[], keys: StoredKey[]) => {
    repository.next = { readAt: new Date(), projectIds, keys };
    await cache.refresh();
  };

  beforeEach(() => {
    repository = new FakeRepository();
    cache = new ProjectKeyCache(
      repository as unknown as ProjectsRepository,
      { subscribers: [] } as unknown as DataSource,
      { ANALYTICS_KEY_REFRESH_MS: 2000 } as AnalyticsConfig,
    );
  });

  it('keeps each secret digest in a buffer of its own, not in a slab of the shared pool', async () => {
    await read(
      [1, 2, 3],
      [1, 2, 3].map((p) => pair(p, 1)),
    );
    for (const entry of entries().values()) {
      expect(entry.secretHash.byteLength).toBe(32);
      expect(entry.secretHash.buffer.byteLength).toBe(32);
    }
    expect(cache.verify('pk-2-1', 'sk-2-1')).toBe(2);
  });

  it('keeps the entries of pairs that did not change when a project is read again', async () => {
    await read([1], [pair(1, 1), pair(1, 2)]);
    const before = entries().get('pk-1-1');
    await read([1], [pair(1, 1), pair(1, 2)]); // the overlap window re-reads it
    await read([1], [pair(1, 1), pair(1, 2), pair(1, 3)]);
    expect(entries().get('pk-1-1')).toBe(before);
    expect(cache.size).toBe(3);
  });

  it('drops removed pairs and every pair of a deleted project', async () => {
    await read([1, 2], [pair(1, 1), pair(1, 2), pair(2, 1)]);
    await read([1], [pair(1, 2)]);
    expect(cache.verify('pk-1-1', 'sk-1-1')).toBeNull();
    expect(cache.verify('pk-1-2', 'sk-1-2')).toBe(1);
    await read([2], []); // deleted: no keys any more
    expect(cache.verify('pk-2-1', 'sk-2-1')).toBeNull();
    expect(cache.size).toBe(1);
  });

  it('answers a changed secret with the new one only', async () => {
    await read([1], [pair(1, 1)]);
    await read([1], [{ ...pair(1, 1), secretKeySha256: sha256('rotated') }]);
    expect(cache.verify('pk-1-1', 'sk-1-1')).toBeNull();
    expect(cache.verify('pk-1-1', 'rotated')).toBe(1);
  });
});
