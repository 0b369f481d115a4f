import { guardedProviderFetch, providerAddressAllowed } from './provider-fetch.js';

describe("organization connections' outbound addresses", () => {
  const none = new Set<string>();

  it.each(['93.184.216.34', '2606:4700:4700::1111', '::ffff:93.184.216.34'])(
    'allows the public address %s',
    (address) => {
      expect(providerAddressAllowed(address, none)).toBe(true);
    },
  );

  it.each([
    '127.0.0.1',
    '::1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    'fd00:ec2::254',
    '0.0.0.0',
    '::ffff:127.0.0.1',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(providerAddressAllowed(address, none)).toBe(false);
  });

  it('allows exactly the listed private addresses', () => {
    const allowed = new Set(['127.0.0.1']);
    expect(providerAddressAllowed('127.0.0.1', allowed)).toBe(true);
    expect(providerAddressAllowed('127.0.0.2', allowed)).toBe(false);
  });

  it('refuses an IP literal before connecting', async () => {
    const fetch = guardedProviderFetch([]);
    await expect(
      fetch('http://169.254.169.254/.well-known/openid-configuration', {
        method: 'GET',
        headers: {},
        body: undefined,
        redirect: 'manual',
      }),
    ).rejects.toThrow('not a public address');
    await fetch.close();
  });
});
