import { WorkspacePlatformClient } from './client.js';
import { PlatformApiError } from './errors.js';
import { MemoryTokenStorage } from './tokens.js';
import { fakeFetch, json } from './test-fetch.spec-helper.js';

const org = (id: string) => ({ data: { type: 'organization', id, attributes: { name: 'Acme' } } });

function signedIn(handler: Parameters<typeof fakeFetch>[0]) {
  const storage = new MemoryTokenStorage();
  storage.set({ accessToken: 'tok', refreshToken: 'ref' });
  const fake = fakeFetch(handler);
  return {
    sdk: new WorkspacePlatformClient({
      baseUrl: 'http://p.test/',
      apiKey: 'k',
      storage,
      fetch: fake.fetch,
    }),
    ...fake,
  };
}

describe('WorkspacePlatformClient: caches, ids and errors', () => {
  afterEach(() => jest.useRealTimers());

  it('keeps organization reads fresh for 5 minutes; forceRefresh bypasses the cache', async () => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const { sdk, calls } = signedIn(() => json(200, org('7')));
    await sdk.getOrganization(7);
    await sdk.getOrganization(7);
    expect(calls).toHaveLength(1);
    await sdk.getOrganization(7, { forceRefresh: true });
    expect(calls).toHaveLength(2);
    jest.advanceTimersByTime(5 * 60_000 - 1);
    await sdk.getOrganization(7);
    expect(calls).toHaveLength(2);
    jest.advanceTimersByTime(2);
    await sdk.getOrganization(7);
    expect(calls).toHaveLength(3);
  });

  it('rejects an organization answer whose data.id differs from the requested id', async () => {
    const { sdk } = signedIn(() => json(200, org('8')));
    await expect(sdk.getOrganization(7)).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('writes invalidate what they change: a new project drops the cached project list', async () => {
    const { sdk, calls } = signedIn((req) =>
      req.method === 'POST'
        ? json(201, { data: { id: '3', type: 'project', attributes: {} } })
        : json(200, { data: [] }),
    );
    await sdk.listProjects(1);
    await sdk.listProjects(1);
    await sdk.createProject(1, 'P');
    await sdk.listProjects(1);
    expect(calls.map((c) => c.method)).toEqual(['GET', 'POST', 'GET']);
  });

  it('a project update sends data.id equal to the path id', async () => {
    const { sdk, calls } = signedIn(() =>
      json(200, { data: { id: '5', type: 'project', attributes: {} } }),
    );
    await sdk.updateProject(1, 5, 'Renamed');
    expect(calls[0]).toMatchObject({ method: 'PATCH', path: '/v1/api/organizations/1/projects/5' });
    expect(calls[0].body).toEqual({
      data: { id: '5', type: 'project', attributes: { name: 'Renamed' } },
    });
  });

  it('wallet reads are cached; forceRefresh sends cache_bust', async () => {
    const { sdk, calls } = signedIn(() => json(200, { wallet: { address_hash: '0xab' } }));
    await sdk.getWallet('0xab');
    await sdk.getWallet('0xab');
    await sdk.getWallet('0xab', { forceRefresh: true });
    expect(calls).toHaveLength(2);
    expect(calls[1].path).toMatch(/^\/v1\/api\/wallets\/0xab\?cache_bust=\d+$/);
  });

  it('surfaces errors as PlatformApiError with status, code, detail and request id', async () => {
    const { sdk } = signedIn(() =>
      json(
        404,
        {
          errors: [
            { status: '404', code: 'NOT_FOUND', title: 'Not found', detail: 'no such wallet' },
          ],
        },
        { 'x-request-id': 'req-1' },
      ),
    );
    const error = (await sdk.getWallet('0xcd').catch((e: unknown) => e)) as PlatformApiError;
    expect(error).toBeInstanceOf(PlatformApiError);
    expect(error).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      detail: 'no such wallet',
      requestId: 'req-1',
    });
  });
});
