import { createHash } from 'node:crypto';
import { hashSentinelKey, refererAllowed, sentinelKeyMatches } from './sentinel-key.js';

describe('Sentinel Pass key hash and referer patterns', () => {
  it('hashes a key as lowercase SHA-256 hex of its UTF-8 bytes', () => {
    const key = 'sp_ключ-1';
    expect(hashSentinelKey(key)).toBe(createHash('sha256').update(key, 'utf8').digest('hex'));
    expect(hashSentinelKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('matches only the key whose hash is stored, and nothing when no hash is stored', () => {
    const stored = hashSentinelKey('right');
    expect(sentinelKeyMatches('right', stored)).toBe(true);
    expect(sentinelKeyMatches('wrong', stored)).toBe(false);
    expect(sentinelKeyMatches('right', null)).toBe(false);
    expect(sentinelKeyMatches('right', 'not-a-hash')).toBe(false);
  });

  it.each([
    [[], null, true],
    [['example.com'], null, false],
    [['example.com'], 'not a url', false],
    [['example.com'], 'https://example.com/x', true],
    [['example.com'], 'http://EXAMPLE.com:8080/', true],
    [['example.com'], 'https://a.example.com/', false],
    [['*.example.com'], 'https://a.b.example.com/', true],
    [['*.example.com'], 'https://example.com/', false],
    [['*.example.com'], 'https://badexample.com/', false],
    [['https://example.com'], 'http://example.com/', false],
    [['https://example.com'], 'https://example.com/', true],
    [['example.com:8443'], 'https://example.com:8443/', true],
    [['example.com:8443'], 'https://example.com/', false],
    [['example.com/app'], 'https://example.com/app/page', true],
    [['example.com/app'], 'https://example.com/other', false],
    [['other.org', '*.example.com'], 'https://x.example.com', true],
  ] as [string[], string | null, boolean][])(
    'patterns %j with referer %s → allowed %s',
    (patterns, url, allowed) => {
      expect(refererAllowed(url, patterns)).toBe(allowed);
    },
  );
});
