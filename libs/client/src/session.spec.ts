import { WorkspacePlatformClient } from './client.js';
import { MemoryTokenStorage } from './tokens.js';
import { fakeFetch, json, session } from './test-fetch.spec-helper.js';

const BASE = 'http://platform.test';

function client(handler: Parameters<typeof fakeFetch>[0], storage = new MemoryTokenStorage()) {
  const fake = fakeFetch(handler);
  const onSessionEnd = jest.fn();
  const sdk = new WorkspacePlatformClient({
    baseUrl: BASE,
    apiKey: 'app-key',
    storage,
    fetch: fake.fetch,
    onSessionEnd,
  });
  return { sdk, storage, onSessionEnd, ...fake };
}

describe('Session: docs/api.md § Authentication', () => {
  it('sends Api-Key on every request and the Bearer token only where needed', async () => {
    const { sdk, calls } = client((req) =>
      req.url.endsWith('/oauth/token')
        ? json(200, session('tok.A', 'ref.A'))
        : json(200, { data: [] }),
    );
    await sdk.login('a@example.com', 'secret-pass');
    await sdk.listWallets();
    expect(calls.map((c) => c.headers.get('api-key'))).toEqual(['app-key', 'app-key']);
    expect(calls[0].headers.get('authorization')).toBeNull();
    expect(calls[1].headers.get('authorization')).toBe('Bearer tok.A');
  });

  it('treats a token with characters outside [A-Za-z0-9._-] as corrupted: cleared, not sent', async () => {
    const storage = new MemoryTokenStorage();
    storage.set({ accessToken: 'bad token!', refreshToken: 'ref' });
    const { sdk, calls, onSessionEnd } = client(() => json(401, { errors: [] }), storage);
    await expect(sdk.listWallets()).rejects.toMatchObject({ status: 401 });
    expect(calls[0].headers.get('authorization')).toBeNull();
    expect(storage.get()).toBeNull();
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(1); // no refresh without a session
  });

  it('on 401 refreshes once and retries the request once with the new token', async () => {
    const storage = new MemoryTokenStorage();
    storage.set({ accessToken: 'old', refreshToken: 'ref.1' });
    const { sdk, calls } = client((req, body) => {
      if (req.url.endsWith('/oauth/token/refresh')) {
        expect(body).toEqual({ refresh_token: 'ref.1' });
        return json(200, session('new', 'ref.2'));
      }
      return req.headers.get('authorization') === 'Bearer new'
        ? json(200, { data: [] })
        : json(401, {});
    }, storage);
    await expect(sdk.listWallets()).resolves.toEqual({ data: [] });
    expect(calls.map((c) => c.path)).toEqual([
      '/v1/api/wallets',
      '/v1/api/oauth/token/refresh',
      '/v1/api/wallets',
    ]);
    expect(storage.get()).toEqual({ accessToken: 'new', refreshToken: 'ref.2' });
  });

  it('retries only once: a second 401 is the answer', async () => {
    const storage = new MemoryTokenStorage();
    storage.set({ accessToken: 'old', refreshToken: 'ref.1' });
    const { sdk, calls } = client(
      (req) =>
        req.url.endsWith('/refresh')
          ? json(200, session('new', 'ref.2'))
          : json(401, { errors: [{ code: 'UNAUTHENTICATED' }] }),
      storage,
    );
    await expect(sdk.listWallets()).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(calls.filter((c) => c.path.endsWith('/refresh'))).toHaveLength(1);
    expect(calls).toHaveLength(3);
  });

  it('concurrent 401s share one refresh (single flight)', async () => {
    const storage = new MemoryTokenStorage();
    storage.set({ accessToken: 'old', refreshToken: 'ref.1' });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { sdk, calls } = client(async (req) => {
      if (req.url.endsWith('/refresh')) {
        await gate;
        return json(200, session('new', 'ref.2'));
      }
      return req.headers.get('authorization') === 'Bearer new'
        ? json(200, { data: [] })
        : json(401, {});
    }, storage);
    const all = Promise.all([sdk.listWallets(), sdk.listWallets(), sdk.listWallets()]);
    await new Promise((r) => setTimeout(r, 10));
    release();
    await expect(all).resolves.toHaveLength(3);
    expect(calls.filter((c) => c.path.endsWith('/refresh'))).toHaveLength(1);
  });

  it('a refresh answered 401 ends the session: credentials cleared, no retry', async () => {
    const storage = new MemoryTokenStorage();
    storage.set({ accessToken: 'old', refreshToken: 'ref.1' });
    const { sdk, calls, onSessionEnd } = client(() => json(401, {}), storage);
    await expect(sdk.listWallets()).rejects.toMatchObject({ status: 401 });
    expect(storage.get()).toBeNull();
    expect(onSessionEnd).toHaveBeenCalledTimes(1);
    expect(calls.map((c) => c.path)).toEqual(['/v1/api/wallets', '/v1/api/oauth/token/refresh']);
  });

  it('logout: GET /oauth/token/revoke; 200 and 401 both end the session locally', async () => {
    for (const status of [200, 401]) {
      const storage = new MemoryTokenStorage();
      storage.set({ accessToken: 'tok', refreshToken: 'ref' });
      const { sdk, calls } = client(
        (req) =>
          req.url.endsWith('/revoke')
            ? json(status, status === 200 ? { revoked: true } : {})
            : json(401, {}),
        storage,
      );
      await sdk.logout();
      expect(calls[0]).toMatchObject({ method: 'GET', path: '/v1/api/oauth/token/revoke' });
      expect(calls[0].headers.get('authorization')).toBe('Bearer tok');
      expect(storage.get()).toBeNull();
      expect(sdk.isSignedIn).toBe(false);
    }
  });
});
