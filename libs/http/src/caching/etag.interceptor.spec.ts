import { ifNoneMatchHits, jsonEtag } from './etag.interceptor.js';

describe('ETag helpers (ARCHITECTURE § 4 Caching)', () => {
  it('tags equal JSON bodies alike and different bodies differently', () => {
    expect(jsonEtag({ a: 1 })).toBe(jsonEtag({ a: 1 }));
    expect(jsonEtag({ a: 1 })).not.toBe(jsonEtag({ a: 2 }));
    expect(jsonEtag({ a: 1 })).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  });

  it('matches If-None-Match lists weakly, with * and W/ prefixes; nothing without a header', () => {
    const tag = jsonEtag({ a: 1 });
    expect(ifNoneMatchHits(tag, tag)).toBe(true);
    expect(ifNoneMatchHits(`"other", W/${tag}`, tag)).toBe(true);
    expect(ifNoneMatchHits('*', tag)).toBe(true);
    expect(ifNoneMatchHits('"other"', tag)).toBe(false);
    expect(ifNoneMatchHits(undefined, tag)).toBe(false);
  });
});
