import { bearerToken, isWellFormedToken } from './token-format.js';

describe('token format (docs/api.md § Authentication 3)', () => {
  it('accepts letters, digits, dot, dash and underscore only', () => {
    expect(isWellFormedToken('eyJhbGciOi.J9-_x')).toBe(true);
    for (const bad of ['a b', 'a+b', 'a/b', 'a=b', 'tök', ''])
      expect(isWellFormedToken(bad)).toBe(false);
  });

  it('extracts the bearer token', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });
});
