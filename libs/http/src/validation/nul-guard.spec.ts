import { findLoneSurrogate, findNul, findNulParameter, mayHoldLoneSurrogate } from './nul-guard.js';

describe('NUL guard', () => {
  it('points at the first string or key holding U+0000', () => {
    expect(findNul({ a: 'ok', b: ['x', 'y\u0000'] })).toBe('/b/1');
    expect(findNul({ 'k/\u0000': 1 })).toBe('/k~1\u0000');
    expect(findNul('\u0000')).toBe('');
    expect(findNul({ a: { b: { c: 'fine' } }, n: 1, t: true, z: null })).toBeNull();
  });

  it('walks deep bodies without recursion', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findNul(deep)).toMatch(/^(\/0){100000}$/);
  });

  it('names the query or path parameter holding U+0000', () => {
    expect(findNulParameter({ a: 'x' }, { search: 'a\u0000' })).toBe('search');
    expect(findNulParameter({ tags: ['a', '\u0000'] })).toBe('tags');
    expect(findNulParameter({ a: 'x' }, undefined)).toBeNull();
  });
});

describe('findLoneSurrogate', () => {
  it('points at a string or key holding half a surrogate pair, and passes pairs', () => {
    expect(findLoneSurrogate({ a: ['ok', 'x\uD800y'] })).toBe('/a/1');
    expect(findLoneSurrogate({ ['\uDC00']: 1 })).toBe('/\uDC00');
    expect(findLoneSurrogate({ a: '😀 \uD83D\uDE00', b: 'plain' })).toBeNull();
    expect(mayHoldLoneSurrogate('{"a":"\\ud800"}')).toBe(true);
    expect(mayHoldLoneSurrogate('{"a":"\\u00e9"}')).toBe(false);
  });
});
