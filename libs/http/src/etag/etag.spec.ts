import { ifNoneMatchMatches, weakETag } from './etag.js';

describe('weakETag / ifNoneMatchMatches (RFC 9110 § 8.8.3, § 13.1.2)', () => {
  const tag = weakETag('{"data":{"id":"1"}}');

  it('is a weak tag that depends on every byte of the body', () => {
    expect(tag).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
    expect(weakETag('{"data":{"id":"1"}}')).toBe(tag);
    expect(weakETag('{"data":{"id":"2"}}')).not.toBe(tag);
  });

  it('compares weakly: the strong form of the same opaque tag matches too', () => {
    expect(ifNoneMatchMatches(tag, tag)).toBe(true);
    expect(ifNoneMatchMatches(tag.slice(2), tag)).toBe(true);
  });

  it('matches any member of a list, also across repeated header lines, and *', () => {
    expect(ifNoneMatchMatches(`"x", ${tag} , W/"y"`, tag)).toBe(true);
    expect(ifNoneMatchMatches(['"x"', tag], tag)).toBe(true);
    expect(ifNoneMatchMatches('*', tag)).toBe(true);
    expect(ifNoneMatchMatches(' * ', tag)).toBe(true);
  });

  it('does not match other tags, substrings, unquoted values or nothing', () => {
    expect(ifNoneMatchMatches(undefined, tag)).toBe(false);
    expect(ifNoneMatchMatches('', tag)).toBe(false);
    expect(ifNoneMatchMatches('W/"other"', tag)).toBe(false);
    expect(ifNoneMatchMatches(tag.slice(3, -1), tag)).toBe(false);
    expect(ifNoneMatchMatches(`W/"${tag.slice(3, -2)}"`, tag)).toBe(false);
    expect(ifNoneMatchMatches('"a,b"', 'W/"a"')).toBe(false);
    expect(ifNoneMatchMatches('"a,b"', 'W/"a,b"')).toBe(true);
  });
});
