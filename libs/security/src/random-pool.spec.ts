import { pooledRandomBytes } from './random-pool.js';

describe('pooledRandomBytes', () => {
  it('hands out each byte once, across refills, in the sizes asked', () => {
    const seen = new Set<string>();
    // 2,000 × 44 bytes: more than 20 pool refills.
    for (let i = 0; i < 1000; i++) {
      for (const size of [32, 12]) {
        const bytes = pooledRandomBytes(size);
        expect(bytes).toHaveLength(size);
        const hex = bytes.toString('hex');
        expect(seen.has(hex)).toBe(false);
        seen.add(hex);
      }
    }
  });

  it('never changes bytes it returned earlier', () => {
    const first = pooledRandomBytes(32);
    const copy = Buffer.from(first);
    for (let i = 0; i < 500; i++) pooledRandomBytes(32);
    expect(first.equals(copy)).toBe(true);
  });

  it('serves large sizes and zero', () => {
    expect(pooledRandomBytes(5000)).toHaveLength(5000);
    expect(pooledRandomBytes(0)).toHaveLength(0);
  });
});
