import { WorkspacePlatformClient } from './client.js';
import { AnalyticsClient } from './analytics.js';
import { isPlatformApiError, PlatformApiError } from './errors.js';
import { MemoryTokenStorage } from './tokens.js';
import { fakeFetch, json, session } from './test-fetch.spec-helper.js';

function client(handler: Parameters<typeof fakeFetch>[0]) {
  const storage = new MemoryTokenStorage();
  storage.set({ accessToken: 'tok', refreshToken: 'ref' });
  const fake = fakeFetch(handler);
  const options = { baseUrl: 'http://p.test', apiKey: 'k', storage, fetch: fake.fetch };
  return { sdk: new WorkspacePlatformClient({ ...options, retry: false }), ...fake };
}

describe('one error style: every call resolves with its answer or rejects with PlatformApiError', () => {
  it('helpers and sdk.api reject alike, with status, code, title, detail, requestId, operation', async () => {
    const body = {
      errors: [
        {
          status: '422',
          code: 'INSUFFICIENT_FUNDS',
          title: 'Insufficient funds',
          detail: 'available 3, asked 5',
          meta: { requestId: 'req-body' },
        },
      ],
    };
    const { sdk } = client(() => json(422, body, { 'x-request-id': 'req-9' }));
    const transaction = {
      from_wallet: 'a',
      to_wallet: 'b',
      from_asset: 'X',
      to_asset: 'X',
      amount: 5,
    };
    const fromHelper = await sdk.transact(transaction).catch((e: unknown) => e);
    const fromApi = await sdk.api
      .POST('/v1/api/wallets/transact', { body: { transaction } })
      .catch((e: unknown) => e);
    for (const error of [fromHelper, fromApi]) {
      expect(error).toBeInstanceOf(PlatformApiError);
      expect(error).toMatchObject({
        status: 422,
        code: 'INSUFFICIENT_FUNDS',
        title: 'Insufficient funds',
        detail: 'available 3, asked 5',
        requestId: 'req-9',
        operation: 'POST /v1/api/wallets/transact',
        errors: body.errors,
      });
    }
  });

  it('isPlatformApiError narrows to one operation (by the operation that failed)', async () => {
    const { sdk } = client(() => json(404, { errors: [{ code: 'WALLET_NOT_FOUND', title: 'x' }] }));
    const error = await sdk.getWallet('0xcd').catch((e: unknown) => e);
    expect(isPlatformApiError(error)).toBe(true);
    expect(isPlatformApiError(error, 'GET /v1/api/wallets/{addressHash}')).toBe(true);
    expect(isPlatformApiError(error, 'POST /v1/api/wallets/transact')).toBe(false);
    expect(isPlatformApiError(new Error('x'))).toBe(false);
    if (isPlatformApiError(error, 'GET /v1/api/wallets/{addressHash}')) {
      expect(error.code === 'WALLET_NOT_FOUND').toBe(true); // typed: that operation's codes
    }
  });

  it('reads the analytics API error shape (Langfuse: code, message, error)', async () => {
    const fake = fakeFetch(() =>
      json(401, {
        message: 'Invalid credentials',
        error: 'Unauthorized',
        code: 'authentication_failed',
      }),
    );
    const analytics = new AnalyticsClient(
      'http://p.test',
      { publicKey: 'p', secretKey: 's' },
      { fetch: fake.fetch },
    );
    const error = await analytics
      .dailyMetrics({ fromTimestamp: '2026-01-01T00:00:00Z', toTimestamp: '2026-01-02T00:00:00Z' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 401,
      code: 'authentication_failed',
      title: 'Unauthorized',
      detail: 'Invalid credentials',
      operation: 'GET /api/public/metrics/daily',
    });
  });

  it('an answer without a code is UNDOCUMENTED_ERROR; no answer at all is NETWORK_ERROR (status 0)', async () => {
    const html = client(
      () => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    await expect(html.sdk.listWallets()).rejects.toMatchObject({
      status: 502,
      code: 'UNDOCUMENTED_ERROR',
      title: 'Bad Gateway',
    });
    const down = client(() => Promise.reject(new TypeError('fetch failed')));
    const error = await down.sdk.listWallets().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR', detail: 'fetch failed' });
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });
});

describe('register answers narrow by status', () => {
  it('201: activation required (not signed in); 200: the session (kept)', async () => {
    const activation = {
      user_id: 'u-1',
      status: 201,
      message: 'check your mail',
      activationRequired: true,
    };
    const pending = client(() => json(201, activation));
    pending.sdk.session.end();
    const registered = await pending.sdk.register('a@example.com', 'secret-pass');
    expect(registered).toEqual({ status: 201, body: activation });
    expect(pending.sdk.isSignedIn).toBe(false);

    const open = client(() => json(200, session('tok.new', 'ref.new')));
    open.sdk.session.end();
    const signedUp = await open.sdk.register('b@example.com', 'secret-pass');
    expect(signedUp.status).toBe(200);
    if (signedUp.status === 200) expect(signedUp.body.data.attributes.accessToken).toBe('tok.new');
    expect(open.sdk.session.tokens).toEqual({ accessToken: 'tok.new', refreshToken: 'ref.new' });
  });

  it('a body that does not match its status is INVALID_RESPONSE', async () => {
    const { sdk } = client(() =>
      json(200, { user_id: 'u-1', status: 201, message: '', activationRequired: true }),
    );
    await expect(sdk.register('a@example.com', 'secret-pass')).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
      operation: 'POST /v1/api/users',
    });
  });

  it('login sends the password grant only (no client_id / client_secret)', async () => {
    const { sdk, calls } = client(() => json(200, session('t', 'r')));
    await sdk.login('a@example.com', 'secret-pass');
    expect(calls[0].body).toEqual({
      grant_type: 'password',
      username: 'a@example.com',
      password: 'secret-pass',
    });
  });
});
