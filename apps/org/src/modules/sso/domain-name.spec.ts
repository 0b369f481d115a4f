import { normalizeDomain, verificationRecordName, verificationRecordValue } from './domain-name.js';

describe('organization domain names', () => {
  it.each([
    ['Example.COM', 'example.com'],
    ['example.com.', 'example.com'],
    ['  sub.example.co.uk ', 'sub.example.co.uk'],
    ['bücher.example', 'xn--bcher-kva.example'],
  ])('stores %s as %s', (input, stored) => {
    expect(normalizeDomain(input)).toBe(stored);
  });

  it.each(['', 'localhost', 'not a domain', 'a..b', '-a.com', 'a-.com', '1.2.3.4', 'x@y.com'])(
    'refuses %j',
    (input) => {
      expect(normalizeDomain(input)).toBeNull();
    },
  );

  it('names the TXT record and its value', () => {
    expect(verificationRecordName('example.com')).toBe('_wp-verification.example.com');
    expect(verificationRecordValue('abc')).toBe('wp-verification=abc');
  });
});
