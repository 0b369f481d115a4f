import { WorkspacePlatformClient } from './client.js';
import { AnalyticsClient } from './analytics.js';
import { cursorPages, numberedPages } from './paging.js';
import { MemoryTokenStorage } from './tokens.js';
import { fakeFetch, json } from './test-fetch.spec-helper.js';

function signedIn(handler: Parameters<typeof fakeFetch>[0]) {
  const storage = new MemoryTokenStorage();
  storage.set({ accessToken: 'tok', refreshToken: 'ref' });
  const fake = fakeFetch(handler);
  const sdk = new WorkspacePlatformClient({
    baseUrl: 'http://p.test',
    apiKey: 'k',
    storage,
    fetch: fake.fetch,
  });
  return { sdk, ...fake };
}

/** A page-numbered list of `total` lines (ids "1".."total"), `per_page` at a time. */
function pagedLines(total: number) {
  return (request: Request) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get('page'));
    const perPage = Number(url.searchParams.get('per_page') ?? 20);
    const ids = Array.from({ length: total }, (_, i) => String(i + 1));
    const data = ids.slice((page - 1) * perPage, page * perPage).map((id) => ({ id }));
    const meta = {
      page,
      per_page: perPage,
      total_count: total,
      total_pages: Math.ceil(total / perPage),
    };
    return json(200, { data, meta });
  };
}

describe('lists as async iterables, following each list paging scheme', () => {
  it('wallet transactions: page=1,2,… with per_page until total_pages', async () => {
    const { sdk, calls } = signedIn(pagedLines(5));
    const ids: string[] = [];
    for await (const line of sdk.walletTransactions('0xaa', { perPage: 2 })) ids.push(line.id);
    expect(ids).toEqual(['1', '2', '3', '4', '5']);
    expect(calls.map((c) => c.path)).toEqual([
      '/v1/api/wallets/0xaa/transactions?page=1&per_page=2',
      '/v1/api/wallets/0xaa/transactions?page=2&per_page=2',
      '/v1/api/wallets/0xaa/transactions?page=3&per_page=2',
    ]);
  });

  it('reads lazily: leaving the loop reads no further page', async () => {
    const { sdk, calls } = signedIn(pagedLines(100));
    for await (const transfer of sdk.walletTransfers({ perPage: 10 })) {
      if (transfer.id === '3') break;
    }
    expect(calls).toHaveLength(1);
    expect(await sdk.walletTransfers({ perPage: 10 }).toArray(15)).toHaveLength(15);
  });

  it('an item pushed onto the next page by a newer one is not yielded twice', async () => {
    const pages = [
      { items: [{ id: 'c' }, { id: 'b' }], totalPages: 2 },
      { items: [{ id: 'b' }, { id: 'a' }], totalPages: 2 }, // "b" slid down: a new entry arrived
    ];
    const list = numberedPages(
      (page) => Promise.resolve(pages[page - 1]),
      (item) => item.id,
    );
    expect((await list.toArray()).map((i) => i.id)).toEqual(['c', 'b', 'a']);
  });

  it('activity logs send agent_user_id and filters on every page', async () => {
    const { sdk, calls } = signedIn(pagedLines(3));
    const entries = await sdk.activityLogs('agent-1', { per_page: 2, success: false }).toArray();
    expect(entries).toHaveLength(3);
    expect(calls.map((c) => new URL(c.path, 'http://p.test').searchParams.toString())).toEqual([
      'per_page=2&success=false&agent_user_id=agent-1&page=1',
      'per_page=2&success=false&agent_user_id=agent-1&page=2',
    ]);
  });

  it('audit log: follows meta.next_cursor until it is null', async () => {
    const { sdk, calls } = signedIn((request) => {
      const cursor = new URL(request.url).searchParams.get('cursor');
      const next = cursor === null ? 'c1' : cursor === 'c1' ? 'c2' : null;
      return json(200, {
        data: [{ id: cursor ?? 'c0', type: 'audit_log_entry', attributes: {} }],
        meta: { limit: 1, next_cursor: next },
        links: { next: null },
      });
    });
    const entries = await sdk.auditLog(3, { limit: 1 }).toArray();
    expect(entries.map((e) => e.id)).toEqual(['c0', 'c1', 'c2']);
    expect(calls.map((c) => c.path)).toEqual([
      '/v1/api/organizations/3/audit_log?limit=1',
      '/v1/api/organizations/3/audit_log?limit=1&cursor=c1',
      '/v1/api/organizations/3/audit_log?limit=1&cursor=c2',
    ]);
  });

  it('a cursor that does not move ends the list instead of looping', async () => {
    let reads = 0;
    const list = cursorPages(() => Promise.resolve({ items: [{ n: ++reads }], next: 'same' }));
    expect(await list.toArray()).toHaveLength(2);
  });

  it('projects and sessions: one answer holds the whole list', async () => {
    const { sdk, calls } = signedIn(() => json(200, { data: [{ id: '1' }, { id: '2' }] }));
    expect(await sdk.projects(1, { search: 'Web', sort: '-created_at' }).toArray()).toHaveLength(2);
    expect(await sdk.userSessions().toArray()).toHaveLength(2);
    expect(calls.map((c) => c.path)).toEqual([
      '/v1/api/organizations/1/projects?search=Web&sort=-created_at',
      '/v1/api/users/me/sessions',
    ]);
  });

  it('analytics traces: page / limit until meta.totalPages; pages() gives whole pages', async () => {
    const fake = fakeFetch((request) => {
      const page = Number(new URL(request.url).searchParams.get('page'));
      return json(200, {
        data: [{ id: `t${page}` }],
        meta: { page, limit: 1, totalItems: 2, totalPages: 2 },
      });
    });
    const analytics = new AnalyticsClient(
      'http://p.test',
      { publicKey: 'p', secretKey: 's' },
      { fetch: fake.fetch },
    );
    const pages: string[][] = [];
    for await (const page of analytics.traces({ limit: 1 }).pages())
      pages.push(page.map((t) => t.id));
    expect(pages).toEqual([['t1'], ['t2']]);
    expect(fake.calls.map((c) => c.path)).toEqual([
      '/api/public/traces?limit=1&page=1',
      '/api/public/traces?limit=1&page=2',
    ]);
  });
});
