import { checkRelyingParty } from './relying-party.js';

describe('checkRelyingParty', () => {
  it('accepts origins on the RP id or its subdomains, normalized', () => {
    expect(
      checkRelyingParty('example.com', ['https://example.com/', 'https://app.example.com:8443']),
    ).toEqual({ origins: ['https://example.com', 'https://app.example.com:8443'] });
    expect(checkRelyingParty('localhost', ['http://localhost:3000'])).toEqual({
      origins: ['http://localhost:3000'],
    });
  });

  it('refuses another domain, a look-alike suffix, paths, other schemes and bad RP ids', () => {
    for (const [rpId, origin] of [
      ['example.com', 'https://example.org'],
      ['example.com', 'https://badexample.com'],
      ['example.com', 'https://example.com/login'],
      ['example.com', 'ftp://example.com'],
      ['example.com', 'not a url'],
      ['Example.com', 'https://example.com'],
      ['https://example.com', 'https://example.com'],
    ]) {
      expect(checkRelyingParty(rpId, [origin])).toEqual({ error: expect.any(String) });
    }
    expect(checkRelyingParty('example.com', [])).toEqual({ error: 'no origin given' });
  });
});
