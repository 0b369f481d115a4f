import { OrgTestContext, type TestUser } from '../support/org-test-app.js';

/**
 * docs/architecture.md § Caching (single resources carry `ETag`) and docs/org.md § ETags: the
 * single-resource GETs of org answer a weak `ETag`; `If-None-Match` with it (weak comparison,
 * RFC 9110 § 13.1.2) gives 304 with no body; a change makes the old tag stale. Lists carry none,
 * and errors are never turned into 304.
 */
describe('ETag on single-resource GETs', () => {
  let ctx: OrgTestContext;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let orgId: string;
  let projectId: string;

  beforeAll(async () => {
    ctx = await OrgTestContext.start();
    owner = await ctx.newUser('owner');
    member = await ctx.newUser('member');
    outsider = await ctx.newUser('outsider');
    orgId = await ctx.newOrganization(owner, 'Tagged');
    await ctx.addMember(orgId, owner, member, 'MEMBER');
    projectId = await ctx.newProject(orgId, owner, 'Tagged project');
    await ctx.addProjectMember(orgId, projectId, owner, member, 'VIEWER');
    await ctx.newOrganization(outsider, 'Elsewhere');
  });
  afterAll(() => ctx.close());

  const ORG = () => `/organizations/${orgId}`;
  const PROJECT = () => `/organizations/${orgId}/projects/${projectId}`;
  const WEAK = /^W\/"[A-Za-z0-9_-]{22}"$/;
  const get = (url: string, user: TestUser, ifNoneMatch?: string) =>
    ctx.request('GET', url, {
      token: user.token,
      ...(ifNoneMatch ? { headers: { 'if-none-match': ifNoneMatch } } : {}),
    });

  describe.each([
    [
      'GET /organizations/{id}',
      ORG,
      { data: { id: '', type: 'organization', attributes: { name: 'Renamed org' } } },
    ],
    [
      'GET P/{id}',
      PROJECT,
      { data: { id: '', type: 'project', attributes: { name: 'Renamed project' } } },
    ],
  ])('%s', (_name, url, patch) => {
    it('answers a weak ETag, stable while nothing changes', async () => {
      const first = await get(url(), owner);
      expect(first.status).toBe(200);
      expect(first.headers['etag']).toMatch(WEAK);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      expect((await get(url(), owner)).headers['etag']).toBe(first.headers['etag']);
    });

    it('answers 304 with no body (and the same ETag) to If-None-Match with the current tag', async () => {
      const etag = (await get(url(), owner)).headers['etag'] as string;
      for (const header of [etag, etag.replace(/^W\//, ''), `W/"other", ${etag}`, '*']) {
        const res = await get(url(), owner, header);
        expect(res.status).toBe(304);
        expect(res.body).toBeUndefined();
        expect(res.headers['etag']).toBe(etag);
      }
    });

    it('changes the ETag after PATCH; the old tag then gets 200 with the new body', async () => {
      const before = (await get(url(), owner)).headers['etag'] as string;
      const id = url() === ORG() ? orgId : projectId;
      const res = await ctx.request('PATCH', url(), {
        token: owner.token,
        body: { data: { ...patch.data, id } },
      });
      expect(res.status).toBe(200);
      const after = await get(url(), owner, before);
      expect(after.status).toBe(200);
      expect(after.body.data.attributes.name).toBe(patch.data.attributes.name);
      expect(after.headers['etag']).toMatch(WEAK);
      expect(after.headers['etag']).not.toBe(before);
      expect((await get(url(), owner, after.headers['etag'] as string)).status).toBe(304);
    });

    it('tags what each caller sees: another role (meta.can) or an include is another tag', async () => {
      const asOwner = (await get(url(), owner)).headers['etag'] as string;
      const asMember = await get(url(), member, asOwner);
      expect(asMember.status).toBe(200);
      expect(asMember.headers['etag']).toMatch(WEAK);
      expect(asMember.headers['etag']).not.toBe(asOwner);
      const included = await get(`${url()}?include=users`, owner, asOwner);
      expect(included.status).toBe(200);
      expect(included.headers['etag']).not.toBe(asOwner);
    });

    it('never answers 304 or a tag for someone who may not see the resource (404 stays 404)', async () => {
      const etag = (await get(url(), owner)).headers['etag'] as string;
      for (const header of [etag, '*']) {
        const res = await get(url(), outsider, header);
        expect(res.status).toBe(404);
        expect(res.headers['etag']).toBeUndefined();
        expect(res.body.errors[0].code).toBe('NOT_FOUND');
      }
    });

    it('serves HEAD with the same ETag, and 304 to a matching If-None-Match', async () => {
      const etag = (await get(url(), owner)).headers['etag'] as string;
      const head = await ctx.org.inject({
        method: 'HEAD',
        url: `/v1/api${url()}`,
        headers: { 'api-key': ctx.env.keys.apiKey, authorization: `Bearer ${owner.token}` },
      });
      expect(head.statusCode).toBe(200);
      expect(head.headers['etag']).toBe(etag);
      expect(head.body).toBe('');
      const conditional = await ctx.org.inject({
        method: 'HEAD',
        url: `/v1/api${url()}`,
        headers: {
          'api-key': ctx.env.keys.apiKey,
          authorization: `Bearer ${owner.token}`,
          'if-none-match': etag,
        },
      });
      expect(conditional.statusCode).toBe(304);
      expect(conditional.headers['etag']).toBe(etag);
    });
  });

  it('tags secret=true answers too, but with Cache-Control: no-store', async () => {
    const plain = await get(PROJECT(), owner);
    const secret = await get(`${PROJECT()}?secret=true`, owner);
    expect(secret.status).toBe(200);
    expect(secret.body.meta.secrets.secretKey).toMatch(/^sk_/);
    expect(secret.headers['cache-control']).toBe('no-store');
    expect(secret.headers['etag']).toMatch(WEAK);
    expect(secret.headers['etag']).not.toBe(plain.headers['etag']);
    const again = await get(`${PROJECT()}?secret=true`, owner, secret.headers['etag'] as string);
    expect(again.status).toBe(304);
    expect(again.headers['cache-control']).toBe('no-store');
  });

  it('a change of membership changes the project tag (members count is part of the body)', async () => {
    const before = (await get(PROJECT(), owner)).headers['etag'] as string;
    const newcomer = await ctx.newUser('newcomer');
    await ctx.addProjectMember(orgId, projectId, owner, newcomer, 'MEMBER');
    const after = await get(PROJECT(), owner, before);
    expect(after.status).toBe(200);
    expect(after.headers['etag']).not.toBe(before);
  });

  it('tags GET S/{passId} (Sentinel Pass): 304 for the current tag, a new tag after PUT', async () => {
    const S = `${PROJECT()}/sentinel_passes`;
    const created = await ctx.request('POST', S, {
      token: owner.token,
      body: { sentinelPass: { title: 'Tagged bot' } },
    });
    expect(created.status).toBe(201);
    const url = `${S}/${created.body.data.id as string}`;
    const first = await get(url, owner);
    expect(first.status).toBe(200);
    expect(first.headers['etag']).toMatch(WEAK);
    expect((await get(url, owner, first.headers['etag'] as string)).status).toBe(304);
    const put = await ctx.request('PUT', url, {
      token: owner.token,
      body: { sentinelPass: { title: 'Retitled bot' } },
    });
    expect(put.status).toBe(200);
    const after = await get(url, owner, first.headers['etag'] as string);
    expect(after.status).toBe(200);
    expect(after.headers['etag']).not.toBe(first.headers['etag']);
    expect((await get(S, owner, '*')).headers['etag']).toBeUndefined();
  });

  it('tags GET /user_settings per user and client: 304 for the current tag, a new tag after PATCH', async () => {
    const first = await get('/user_settings', member);
    expect(first.status).toBe(200);
    expect(first.headers['etag']).toMatch(WEAK);
    expect((await get('/user_settings', member, first.headers['etag'] as string)).status).toBe(304);
    const other = await get('/user_settings', owner, first.headers['etag'] as string);
    expect(other.status).toBe(200);
    const patched = await ctx.request('PATCH', '/user_settings', {
      token: member.token,
      body: { theme: first.body.theme === 'dark' ? 'light' : 'dark' },
    });
    expect(patched.status).toBe(200);
    const after = await get('/user_settings', member, first.headers['etag'] as string);
    expect(after.status).toBe(200);
    expect(after.headers['etag']).not.toBe(first.headers['etag']);
  });

  it('lists and sub-collections carry no ETag and ignore If-None-Match', async () => {
    for (const url of [
      '/organizations',
      `${ORG()}/users`,
      `${ORG()}/projects`,
      `${PROJECT()}/users`,
      `${ORG()}/api_keys`,
    ]) {
      const res = await get(url, owner, '*');
      expect([url, res.status]).toEqual([url, 200]);
      expect(res.headers['etag']).toBeUndefined();
      expect(res.headers['cache-control']).toBeUndefined();
    }
  });
});
