import { addressAllowed, urlProblem, type UrlRules } from './url-policy.js';

describe('webhook URL policy (docs/org.md § SSRF defence)', () => {
  const strict: UrlRules = {
    allowHttp: false,
    allowedPrivateAddresses: [],
    allowPrivateNetworks: false,
  };
  const dns = (table: Record<string, string[]>) => (host: string) => {
    const found = table[host];
    return found ? Promise.resolve(found) : Promise.reject(new Error('ENOTFOUND'));
  };
  const resolve = dns({
    'hooks.example.com': ['93.184.215.14'],
    'internal.example.com': ['10.0.0.5'],
    'mixed.example.com': ['93.184.215.14', '192.168.1.10'],
    'six.example.com': ['::1'],
  });

  it('accepts an https URL of a public host', async () => {
    expect(await urlProblem('https://hooks.example.com/in', strict, resolve)).toBeNull();
    expect(await urlProblem('https://93.184.215.14:8443/x', strict, resolve)).toBeNull();
  });

  it('refuses private, loopback, link-local, metadata and unspecified addresses', async () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://10.1.2.3/',
      'https://172.16.0.1/',
      'https://192.168.0.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://0.0.0.0/',
      'https://[::1]/',
      'https://[fd00::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://100.64.0.1/',
    ]) {
      expect(await urlProblem(url, strict, resolve)).toMatch(/private or reserved/);
    }
  });

  it('refuses a name that resolves to a private address (any of its addresses)', async () => {
    expect(await urlProblem('https://internal.example.com/', strict, resolve)).toMatch(
      /10\.0\.0\.5/,
    );
    expect(await urlProblem('https://mixed.example.com/', strict, resolve)).toMatch(
      /192\.168\.1\.10/,
    );
    expect(await urlProblem('https://six.example.com/', strict, resolve)).toMatch(/::1/);
    expect(await urlProblem('https://nowhere.example.com/', strict, resolve)).toMatch(
      /does not resolve/,
    );
  });

  it('requires https unless http is allowed, and refuses credentials and other schemes', async () => {
    expect(await urlProblem('http://hooks.example.com/', strict, resolve)).toBe(
      'must be an https URL',
    );
    expect(
      await urlProblem('http://hooks.example.com/', { ...strict, allowHttp: true }, resolve),
    ).toBeNull();
    expect(
      await urlProblem('ftp://hooks.example.com/', { ...strict, allowHttp: true }, resolve),
    ).toBe('must be an http or https URL');
    expect(await urlProblem('https://user:pw@hooks.example.com/', strict, resolve)).toBe(
      'must not carry credentials',
    );
    expect(await urlProblem('not a url', strict, resolve)).toBe('must be an absolute URL');
    expect(
      await urlProblem(`https://hooks.example.com/${'a'.repeat(2000)}`, strict, resolve),
    ).toMatch(/at most 2000/);
  });

  it('lets the allow-list open exact addresses and ranges, never metadata addresses', () => {
    const rules = {
      allowedPrivateAddresses: ['127.0.0.1', '10.0.0.0/8'],
      allowPrivateNetworks: false,
    };
    expect(addressAllowed('127.0.0.1', rules)).toBe(true);
    expect(addressAllowed('127.0.0.2', rules)).toBe(false);
    expect(addressAllowed('10.9.8.7', rules)).toBe(true);
    expect(addressAllowed('192.168.0.1', rules)).toBe(false);
    const open = { allowedPrivateAddresses: ['169.254.169.254'], allowPrivateNetworks: true };
    expect(addressAllowed('192.168.0.1', open)).toBe(true);
    expect(addressAllowed('169.254.169.254', open)).toBe(false);
    expect(addressAllowed('not-an-ip', open)).toBe(false);
  });
});
