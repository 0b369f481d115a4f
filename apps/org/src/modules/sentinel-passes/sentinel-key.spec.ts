import { hashSentinelKey, sentinelKeyMatches } from '@wp/security';
import { newSentinelKey } from './sentinel-key.js';

describe('newSentinelKey', () => {
  it('makes sp_ + 43 base64url characters (256 bits) and the hash auth compares against', () => {
    const { key, keyHash } = newSentinelKey();
    expect(key).toMatch(/^sp_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(3), 'base64url')).toHaveLength(32);
    expect(keyHash).toBe(hashSentinelKey(key));
    expect(keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(sentinelKeyMatches(key, keyHash)).toBe(true);
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => newSentinelKey().key));
    expect(keys.size).toBe(1000);
  });
});
