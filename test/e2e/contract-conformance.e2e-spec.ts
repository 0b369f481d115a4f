import { waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';

/**
 * Contract conformance of the features that landed last, exercised as a client that reads only
 * the contract and docs/architecture.md would: through the gateway (`/v1/api`, `Api-Key`), with the
 * field names, casing, wrappers, statuses, defaults, error bodies and pagination meta they give.
 * docs/api.md § User settings object, docs/api.md § User settings,
 * docs/api.md § Sentinel Pass (unified asset format), docs/api.md § States and transitions
 * (Sentinel Pass rows), docs/api.md § Sentinel Passes, docs/api.md § Errors, docs/api.md § Limits,
 * docs/api.md § Authentication; docs/architecture.md § Decisions where the contract is silent
 * (error body, statuses, ids, "Sentinel Pass key").
 */
describe('contract conformance: user settings, Sentinel Pass, agent activity', () => {
  let stack: PlatformStack;
  let token: string;
  let strangerToken: string;
  let orgId: string;
  let projectId: string;
  let defaultProjectId: string;

  const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const TOKEN = /^[A-Za-z0-9._-]+$/;

  /** docs/architecture.md § Error body: `{errors: [{status: "<string>", code, title, …}]}`. */
  function expectError(res: { status: number; body: any }, status: number, code?: string) {
    expect(res.status).toBe(status);
    expect(Array.isArray(res.body.errors)).toBe(true);
    expect(res.body.errors.length).toBeGreaterThan(0);
    for (const error of res.body.errors) {
      expect(error.status).toBe(String(status));
      expect(typeof error.code).toBe('string');
      expect(typeof error.title).toBe('string');
    }
    if (code) expect(res.body.errors.map((e: any) => e.code)).toContain(code);
  }

  /** docs/architecture.md § Caching: a single resource's GET carries an ETag; a match is 304. */
  async function expectEtag(path: string): Promise<string> {
    const headers = { 'api-key': stack.apiKey, authorization: `Bearer ${token}` };
    const first = await fetch(`${stack.gatewayUrl}${path}`, { headers });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^(W\/)?"[A-Za-z0-9_-]+"$/);
    const again = await fetch(`${stack.gatewayUrl}${path}`, {
      headers: { ...headers, 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    return etag!;
  }

  async function register(email: string): Promise<string> {
    const res = await stack.request('POST', '/v1/api/users', {
      body: { username: email, password: 'a long password' },
    });
    expect(res.status).toBe(200);
    return res.body.data.attributes.accessToken;
  }

  beforeAll(async () => {
    stack = await PlatformStack.start();
    token = await register('conformance-owner@example.com');
    strangerToken = await register('conformance-stranger@example.com');
    const org = await stack.request('POST', '/v1/api/organizations', {
      token,
      body: { data: { type: 'organization', attributes: { name: 'Conformance Org' } } },
    });
    expect(org.status).toBe(200);
    orgId = org.body.data.id;
    const project = await stack.request('POST', `/v1/api/organizations/${orgId}/projects`, {
      token,
      body: { data: { type: 'project', attributes: { name: 'Agents' } } },
    });
    expect(project.status).toBe(201);
    projectId = project.body.data.id;
    const projects = await stack.request('GET', `/v1/api/organizations/${orgId}/projects`, {
      token,
    });
    defaultProjectId = projects.body.data.find((p: any) => p.attributes.isDefault).id;
  });
  afterAll(() => stack.close());

  describe('user settings ({org_url}/user_settings)', () => {
    it('GET answers the settings object at the top level with the contract fields and types; no dashboard unless asked', async () => {
      const res = await stack.request('GET', '/v1/api/user_settings', { token });
      expect(res.status).toBe(200);
      const body = res.body;
      expect(body.data).toBeUndefined();
      expect(body.theme).toBe('light');
      expect(typeof body.language).toBe('string');
      expect(body.sidebar_open).toBe(true);
      expect('dashboard' in body).toBe(false);
      expect(body.current_organization_id ?? null).toBeNull();
      expect(body.current_project_id ?? null).toBeNull();
      expect(body.sidebar.organizations).toHaveLength(1);
      const [org] = body.sidebar.organizations;
      expect(org).toEqual({
        id: Number(orgId),
        name: 'Conformance Org',
        currentUserRole: 'OWNER',
        meta: { can: { organization: { manageSettings: true }, project: { create: true } } },
        pinned_items: [],
        projects: expect.any(Array),
      });
      expect(Number.isInteger(org.id)).toBe(true);
      expect(org.projects).toHaveLength(2);
      for (const p of org.projects) {
        expect(Object.keys(p).sort()).toEqual(['id', 'is_default', 'name']);
        expect(Number.isInteger(p.id)).toBe(true);
        expect(typeof p.is_default).toBe('boolean');
      }
      expect(org.projects.find((p: any) => p.is_default).id).toBe(Number(defaultProjectId));

      const withDashboard = await stack.request('GET', '/v1/api/user_settings?includes=dashboard', {
        token,
      });
      expect(withDashboard.status).toBe(200);
      expect(typeof withDashboard.body.dashboard).toBe('object');
      expect(withDashboard.body.dashboard).not.toBeNull();
    });

    it('the project list and project API keys refuse ISO 8601 forms they cannot read with a 400 (never a 500); a date filters', async () => {
      const P = `/v1/api/organizations/${orgId}/projects`;
      for (const query of [
        'created_after=2026-W47',
        'created_before=20261123',
        'created_after=2026-001',
      ]) {
        const res = await stack.request('GET', `${P}?${query}`, { token });
        expectError(res, 400);
        expect(res.body.errors[0].source.parameter).toBe(query.split('=')[0]);
      }
      await expectEtag(`/v1/api/organizations/${orgId}`);
      await expectEtag(`${P}/${projectId}`);
      const badKey = await stack.request('POST', `${P}/${projectId}/api_keys`, {
        token,
        body: { data: { attributes: { note: 'odd date', expires_at: '2030-W01' } } },
      });
      expectError(badKey, 400);
      expect(badKey.body.errors[0].source.pointer).toBe('/data/attributes/expires_at');
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const before = await stack.request('GET', `${P}?created_before=${tomorrow}`, { token });
      expect(before.body.data).toHaveLength(2);
      const after = await stack.request('GET', `${P}?created_after=${tomorrow}T00:00:00`, {
        token,
      });
      expect(after.body.data).toEqual([]);
    });

    it('PATCH answers 200; values are kept per client (default web); ids are answered as integers', async () => {
      const patched = await stack.request('PATCH', '/v1/api/user_settings', {
        token,
        body: {
          theme: 'dark',
          language: 'pt-BR',
          sidebar_open: false,
          current_organization_id: Number(orgId),
          current_project_id: Number(projectId),
        },
      });
      expect(patched.status).toBe(200);
      const web = await stack.request('GET', '/v1/api/user_settings?client=web', { token });
      expect(web.body).toMatchObject({
        theme: 'dark',
        language: 'pt-BR',
        sidebar_open: false,
        current_organization_id: Number(orgId),
        current_project_id: Number(projectId),
      });
      const etag = await expectEtag('/v1/api/user_settings');
      await stack.request('PATCH', '/v1/api/user_settings', { token, body: { theme: 'light' } });
      expect(await expectEtag('/v1/api/user_settings')).not.toBe(etag);
      await stack.request('PATCH', '/v1/api/user_settings', { token, body: { theme: 'dark' } });
      const ios = await stack.request('GET', '/v1/api/user_settings?client=ios', { token });
      expect(ios.body.theme).toBe('light');
      expect(ios.body.sidebar_open).toBe(true);
    });

    it('pinned projects: PATCH with setting_key=sidebar answers 200; pinned_items keep the array order as integer positions, on every client', async () => {
      const res = await stack.request('PATCH', '/v1/api/user_settings', {
        token,
        body: {
          setting_key: 'sidebar',
          organization_id: Number(orgId),
          pinned_project_ids: [Number(projectId), Number(defaultProjectId)],
        },
      });
      expect(res.status).toBe(200);
      for (const client of ['web', 'android']) {
        const got = await stack.request('GET', `/v1/api/user_settings?client=${client}`, {
          token,
        });
        expect(got.body.sidebar.organizations[0].pinned_items).toEqual([
          { type: 'project', id: Number(projectId), name: 'Agents', position: 0 },
          {
            type: 'project',
            id: Number(defaultProjectId),
            name: expect.any(String),
            position: 1,
          },
        ]);
      }
    });

    it('onboarding: PATCH /user_settings/onboarding/{stepId} answers 200; value defaults to true', async () => {
      const empty = await stack.request(
        'PATCH',
        '/v1/api/user_settings/onboarding/sentinel_pass_discovered',
        { token, body: {} },
      );
      expect(empty.status).toBe(200);
      const hidden = await stack.request('PATCH', '/v1/api/user_settings/onboarding/is_hidden', {
        token,
        body: { value: false },
      });
      expect(hidden.status).toBe(200);
      const got = await stack.request('GET', '/v1/api/user_settings', { token });
      expect(got.body.onboarding).toEqual({ sentinel_pass_discovered: true, is_hidden: false });
    });

    it('refusals use the JSON:API error body: 400 bad value, 401 without token, 403 without Api-Key, 422 for an organization the user is not in', async () => {
      expectError(
        await stack.request('PATCH', '/v1/api/user_settings', { token, body: { theme: 'blue' } }),
        400,
      );
      expectError(await stack.request('GET', '/v1/api/user_settings'), 401);
      expectError(
        await stack.request('GET', '/v1/api/user_settings', {
          token,
          headers: { 'api-key': 'not-a-key' },
        }),
        403,
      );
      expectError(
        await stack.request('PATCH', '/v1/api/user_settings', {
          token: strangerToken,
          body: { current_organization_id: Number(orgId) },
        }),
        422,
      );
      expectError(
        await stack.request('GET', '/v1/api/user_settings', { token: 'bad token!' }),
        401,
      );
    });
  });

  it('a NUL character (U+0000) anywhere in a request is a 400 naming where, never a 500', async () => {
    const S = `/v1/api/organizations/${orgId}/projects/${projectId}/sentinel_passes`;
    const bodies: [string, string, unknown, string][] = [
      ['PATCH', '/v1/api/user_settings/onboarding/nul_step', { value: 'a\u0000b' }, '/value'],
      [
        'PATCH',
        '/v1/api/user_settings/onboarding/nul_step',
        { value: { 'k\u0000': 1 } },
        '/value/k\u0000',
      ],
      ['POST', S, { sentinelPass: { title: 'a\u0000' } }, '/sentinelPass/title'],
      [
        'POST',
        S,
        { sentinelPass: { title: 'ok', tags: ['ok', 't\u0000'] } },
        '/sentinelPass/tags/1',
      ],
      [
        'PATCH',
        `/v1/api/organizations/${orgId}`,
        { data: { attributes: { name: 'a\u0000' } } },
        '/data/attributes/name',
      ],
    ];
    for (const [method, path, body, pointer] of bodies) {
      const res = await stack.request(method, path, { token, body });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.errors[0].source).toEqual({ pointer });
    }
    for (const [path, parameter] of [
      [`${S}?search=%00`, 'search'],
      [`${S}?tags=a,%00`, 'tags'],
      [`/v1/api/oauth/agent/activity/logs?agent_user_id=${projectId}&endpoint=%00`, 'endpoint'],
    ]) {
      const res = await stack.request('GET', path, { token });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.errors[0].source).toEqual({ parameter });
    }
    const settings = await stack.request('GET', '/v1/api/user_settings', { token });
    expect(settings.body.onboarding.nul_step).toBeUndefined();
  });

  describe('Sentinel Pass (org) and the agent (auth)', () => {
    let passId: string;
    let secret: string;
    const S = () => `/v1/api/organizations/${orgId}/projects/${projectId}/sentinel_passes`;

    /** Every field the contract lists under "Sentinel Pass (unified asset format)". */
    function expectUnifiedAsset(pass: any) {
      expect(typeof pass.id).toBe('string');
      expect(pass.id).toMatch(UUID);
      expect(pass.type).toBe('studio_tool');
      const a = pass.attributes;
      expect(typeof a.title).toBe('string');
      expect(typeof a.description).toBe('string');
      expect(a.assetType).toBe('security');
      expect(typeof a.active).toBe('boolean');
      expect(Array.isArray(a.tags)).toBe(true);
      expect(Array.isArray(a.metadata.permissions)).toBe(true);
      expect(Array.isArray(a.metadata.allowedReferers)).toBe(true);
      expect(typeof a.metadata.credentialType).toBe('string');
      expect(Array.isArray(a.metadata.scopes)).toBe(true);
      expect(a.metadata.expiresAt === null || ISO.test(a.metadata.expiresAt)).toBe(true);
      expect(a.metadata.lastRotated === null || ISO.test(a.metadata.lastRotated)).toBe(true);
      expect(Number.isInteger(a.metadata.usageCount)).toBe(true);
      expect(a.createdAt).toMatch(ISO);
      expect(a.updatedAt).toMatch(ISO);
      expect(JSON.stringify(pass)).not.toMatch(/keyHash|sp_[A-Za-z0-9_-]{43}/);
    }

    /** A single pass is wrapped in `sentinelPass` (payload conventions) and in `data`. */
    function single(body: any) {
      expect(body.sentinelPass).toEqual(body.data);
      expectUnifiedAsset(body.sentinelPass);
      return body.sentinelPass;
    }

    it('POST S answers 201 with the unified asset, the contract defaults and the key once at meta.secret', async () => {
      const res = await stack.request('POST', S(), {
        token,
        body: { sentinelPass: { title: 'Reader bot', permissions: ['projects:read'] } },
      });
      expect(res.status).toBe(201);
      const pass = single(res.body);
      expect(pass.attributes).toMatchObject({
        title: 'Reader bot',
        description: '',
        assetType: 'security',
        active: true,
        tags: [],
        metadata: {
          permissions: ['projects:read'],
          allowedReferers: [],
          credentialType: 'api_key',
          scopes: [],
          expiresAt: null,
          lastRotated: null,
          usageCount: 0,
        },
      });
      expect(res.body.meta.secret).toMatch(TOKEN);
      passId = pass.id;
      secret = res.body.meta.secret;
    });

    it('POST S echoes every field sent; entityType/entityId default to the project', async () => {
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const res = await stack.request('POST', S(), {
        token,
        body: {
          sentinelPass: {
            title: 'Deploy bot',
            description: 'ships builds',
            permissions: ['projects:read', 'sentinel_passes:read'],
            allowedReferers: ['*.example.com'],
            credentialType: 'oauth_client',
            scopes: ['read', 'write'],
            expiresAt,
            tags: ['ci', 'prod'],
          },
        },
      });
      expect(res.status).toBe(201);
      const pass = single(res.body);
      expect(pass.attributes).toMatchObject({
        title: 'Deploy bot',
        description: 'ships builds',
        active: true,
        tags: ['ci', 'prod'],
        metadata: {
          permissions: ['projects:read', 'sentinel_passes:read'],
          allowedReferers: ['*.example.com'],
          credentialType: 'oauth_client',
          scopes: ['read', 'write'],
          expiresAt,
          lastRotated: null,
          usageCount: 0,
        },
      });
      expect(pass.attributes.entityType).toBe('project');
      expect(pass.attributes.entityId).toBe(projectId);
    });

    it('GET S lists passes in data with the contract filters; GET S/{id} answers the pass without its key', async () => {
      const list = await stack.request('GET', S(), { token });
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(2);
      list.body.data.forEach(expectUnifiedAsset);
      const ids = async (query: string) =>
        (await stack.request('GET', `${S()}${query}`, { token })).body.data.map(
          (p: any) => p.attributes.title,
        );
      expect(await ids('?credential_type=oauth_client')).toEqual(['Deploy bot']);
      expect(await ids('?tags=ci,prod')).toEqual(['Deploy bot']);
      expect(await ids('?active=true')).toHaveLength(2);
      expect(await ids('?active=false')).toEqual([]);
      expect(await ids('?search=reader')).toEqual(['Reader bot']);

      const one = await stack.request('GET', `${S()}/${passId}`, { token });
      expect(one.status).toBe(200);
      expect(single(one.body).id).toBe(passId);
      expect(one.body.meta?.secret).toBeUndefined();
      await expectEtag(`${S()}/${passId}`);

      const orgList = await stack.request('GET', `/v1/api/organizations/${orgId}/sentinel_passes`, {
        token,
      });
      expect(orgList.status).toBe(200);
      expect(orgList.body.data).toHaveLength(2);
    });

    it('PUT S/{id} answers 200 with the fields changed and a later updatedAt', async () => {
      const before = (await stack.request('GET', `${S()}/${passId}`, { token })).body.data;
      const res = await stack.request('PUT', `${S()}/${passId}`, {
        token,
        body: { sentinelPass: { title: 'Reader bot v2', tags: ['ops'] } },
      });
      expect(res.status).toBe(200);
      const pass = single(res.body);
      expect(pass.attributes.title).toBe('Reader bot v2');
      expect(pass.attributes.tags).toEqual(['ops']);
      expect(pass.attributes.metadata.permissions).toEqual(['projects:read']);
      expect(Date.parse(pass.attributes.updatedAt)).toBeGreaterThanOrEqual(
        Date.parse(before.attributes.updatedAt),
      );
      expect(pass.attributes.createdAt).toBe(before.attributes.createdAt);
    });

    it('the agent exchanges the key (client_credentials) for a session-shaped answer; its requests count in usageCount', async () => {
      const res = await waitFor(
        async () => {
          const r = await stack.request('POST', '/v1/api/oauth/token', {
            body: { grant_type: 'client_credentials', client_id: passId, client_secret: secret },
          });
          return r.status === 200 && r;
        },
        { what: 'the exchange to succeed' },
      );
      expect(res.body.data.id).toBe(passId);
      expect(res.body.data.type).toBe('session');
      const attributes = res.body.data.attributes;
      expect(attributes.accessToken).toMatch(TOKEN);
      expect(typeof attributes.email).toBe('string');
      expect(typeof attributes.firstName).toBe('string');
      expect(typeof attributes.lastName).toBe('string');

      const project = await stack.request(
        'GET',
        `/v1/api/organizations/${orgId}/projects/${projectId}`,
        { token: attributes.accessToken },
      );
      expect(project.status).toBe(200);
      await waitFor(
        async () =>
          (await stack.request('GET', `${S()}/${passId}`, { token })).body.data.attributes.metadata
            .usageCount === 1,
        { what: 'usageCount 1', timeoutMs: 15_000 },
      );

      const refused = await stack.request('POST', '/v1/api/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: passId, client_secret: 'sp_wrong' },
      });
      expectError(refused, 401);
    });

    it('activity logs: data + integer meta.page/per_page/total_count/total_pages, default page size 25', async () => {
      const body = await waitFor(
        async () => {
          const res = await stack.request(
            'GET',
            `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}`,
            { token },
          );
          return res.status === 200 && res.body.meta.total_count >= 3 && res.body;
        },
        { what: 'three activity entries', timeoutMs: 15_000 },
      );
      expect(Array.isArray(body.data)).toBe(true);
      expect(body.meta).toMatchObject({ page: 1, per_page: 25, total_count: 3, total_pages: 1 });
      const types = body.data.map((e: any) => e.activity_type).sort();
      expect(types).toEqual(['api_request', 'error', 'token_generation']);

      const page = await stack.request(
        'GET',
        `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}&page=2&per_page=2&sort_order=asc&success=true`,
        { token },
      );
      expect(page.status).toBe(200);
      expect(page.body.meta).toEqual({ page: 2, per_page: 2, total_count: 2, total_pages: 1 });
      expect(page.body.data).toEqual([]);

      // `endpoint`: the route template of an entry, or the concrete path called, with or
      // without the /v1/api prefix of {org_url}
      const template = body.data.find((e: any) => e.activity_type === 'api_request').endpoint;
      for (const endpoint of [
        template,
        `/v1/api/organizations/${orgId}/projects/${projectId}`,
        `/organizations/${orgId}/projects/${projectId}`,
      ]) {
        const res = await stack.request(
          'GET',
          `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}&endpoint=${encodeURIComponent(endpoint)}`,
          { token },
        );
        expect({ endpoint, types: res.body.data?.map((e: any) => e.activity_type) }).toEqual({
          endpoint,
          types: ['api_request'],
        });
      }
      const other = await stack.request(
        'GET',
        `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}&endpoint=${encodeURIComponent(`/organizations/${orgId}/projects/${projectId}/users`)}`,
        { token },
      );
      expect(other.body.data).toEqual([]);

      // ISO 8601 calendar dates are whole UTC days: today..today holds today's entries
      const today = new Date().toISOString().slice(0, 10);
      const day = await stack.request(
        'GET',
        `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}&start_date=${today}&end_date=${today}`,
        { token },
      );
      expect(day.status).toBe(200);
      expect(day.body.meta.total_count).toBe(3);
      const dayMetrics = await stack.request(
        'GET',
        `/v1/api/oauth/agent/activity/metrics?agent_user_id=${passId}&start_date=${today}&end_date=${today}`,
        { token },
      );
      expect(dayMetrics.body.data).toHaveLength(1);
      expect(dayMetrics.body.data[0].request_count).toBe(2);
      // other ISO 8601 forms are a 400 naming the parameter, never a 500
      for (const path of ['logs', 'export', 'metrics']) {
        const res = await stack.request(
          'GET',
          `/v1/api/oauth/agent/activity/${path}?agent_user_id=${passId}&start_date=2026-W47`,
          { token },
        );
        expectError(res, 400);
        expect(res.body.errors[0].source).toEqual({ parameter: 'start_date' });
      }

      expectError(await stack.request('GET', '/v1/api/oauth/agent/activity/logs', { token }), 400);
      expectError(
        await stack.request('GET', `/v1/api/oauth/agent/activity/logs?agent_user_id=${passId}`, {
          token: strangerToken,
        }),
        404,
      );
    });

    it('activity export: a file download, json by default, csv and jsonl on request', async () => {
      const url = `${stack.gatewayUrl}/v1/api/oauth/agent/activity/export?agent_user_id=${passId}`;
      const headers = { 'api-key': stack.apiKey, authorization: `Bearer ${token}` };
      const json = await fetch(url, { headers });
      expect(json.status).toBe(200);
      expect(json.headers.get('content-type')).toMatch(/^application\/json/);
      expect(json.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.json"$/);
      const rows = JSON.parse(await json.text());
      expect(rows).toHaveLength(3);

      const csv = await fetch(`${url}&format=csv`, { headers });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      expect((await csv.text()).trim().split('\r\n')).toHaveLength(4);

      const jsonl = await fetch(`${url}&format=jsonl`, { headers });
      expect(jsonl.status).toBe(200);
      const lines = (await jsonl.text()).trim().split('\n');
      expect(lines.map((l) => JSON.parse(l).agent_user_id)).toEqual([passId, passId, passId]);

      const bad = await stack.request(
        'GET',
        `/v1/api/oauth/agent/activity/export?agent_user_id=${passId}&format=xml`,
        { token },
      );
      expectError(bad, 400);
    });

    it('activity metrics: data points and meta.period.start_date/end_date/group_by (default day)', async () => {
      const res = await stack.request(
        'GET',
        `/v1/api/oauth/agent/activity/metrics?agent_user_id=${passId}`,
        { token },
      );
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body.data)).toBe(true);
      expect(res.body.meta.period.group_by).toBe('day');
      expect(res.body.meta.period.start_date).toMatch(ISO);
      expect(res.body.meta.period.end_date).toMatch(ISO);
      const hourly = await stack.request(
        'GET',
        `/v1/api/oauth/agent/activity/metrics?agent_user_id=${passId}&group_by=hour`,
        { token },
      );
      expect(hourly.body.meta.period.group_by).toBe('hour');
      expectError(
        await stack.request(
          'GET',
          `/v1/api/oauth/agent/activity/metrics?agent_user_id=${passId}&group_by=month`,
          { token },
        ),
        400,
      );
    });

    it('rotate_key: 200, still active, a new key at meta.secret, lastRotated set; the old key stops working', async () => {
      const before = (await stack.request('GET', `${S()}/${passId}`, { token })).body.data;
      const res = await stack.request('POST', `${S()}/${passId}/rotate_key`, { token });
      expect(res.status).toBe(200);
      const pass = single(res.body);
      expect(Date.parse(pass.attributes.updatedAt)).toBeGreaterThan(
        Date.parse(before.attributes.updatedAt),
      );
      expect(pass.attributes.createdAt).toBe(before.attributes.createdAt);
      expect(pass.attributes.active).toBe(true);
      expect(pass.attributes.metadata.lastRotated).toMatch(ISO);
      expect(Math.abs(Date.parse(pass.attributes.metadata.lastRotated) - Date.now())).toBeLessThan(
        60_000,
      );
      expect(pass.attributes.metadata.usageCount).toBe(1);
      expect(res.body.meta.secret).toMatch(TOKEN);
      expect(res.body.meta.secret).not.toBe(secret);
      await waitFor(
        async () =>
          (
            await stack.request('POST', '/v1/api/oauth/token', {
              body: { grant_type: 'client_credentials', client_id: passId, client_secret: secret },
            })
          ).status === 401,
        { what: 'the old key refused' },
      );
      secret = res.body.meta.secret;
    });

    it('revoke → active false (record kept); activate → active true; both 200 with the pass', async () => {
      const revoked = await stack.request('POST', `${S()}/${passId}/revoke`, { token });
      expect(revoked.status).toBe(200);
      expect(single(revoked.body).attributes.active).toBe(false);
      const kept = await stack.request('GET', `${S()}/${passId}`, { token });
      expect(kept.status).toBe(200);
      expect(kept.body.data.attributes.active).toBe(false);
      const activated = await stack.request('POST', `${S()}/${passId}/activate`, { token });
      expect(activated.status).toBe(200);
      expect(single(activated.body).attributes.active).toBe(true);
      // state changes keep the usage count and the rotation time
      expect(activated.body.data.attributes.metadata.usageCount).toBe(1);
      expect(activated.body.data.attributes.metadata.lastRotated).toBe(
        revoked.body.data.attributes.metadata.lastRotated,
      );
      expect(revoked.body.data.attributes.metadata.lastRotated).not.toBeNull();
    });

    it('refusals: 400 without title, 401 without token, 404 for another tenant, 404 after DELETE (204)', async () => {
      for (const expiresAt of [
        '2030-W01',
        '2030-001',
        '20300101T000000Z',
        '2030-02-30',
        'tomorrow',
      ]) {
        const res = await stack.request('POST', S(), {
          token,
          body: { sentinelPass: { title: 'Odd date', expiresAt } },
        });
        expectError(res, 400);
        expect(res.body.errors[0].source.pointer).toBe('/sentinelPass/expiresAt');
      }
      const noTitle = await stack.request('POST', S(), { token, body: { sentinelPass: {} } });
      expectError(noTitle, 400);
      expect(noTitle.body.errors[0].source.pointer).toBe('/sentinelPass/title');
      expectError(await stack.request('GET', S()), 401);
      expectError(await stack.request('GET', S(), { token: strangerToken }), 404);
      expectError(await stack.request('GET', `${S()}/${passId}`, { token: strangerToken }), 404);
      const deleted = await stack.request('DELETE', `${S()}/${passId}`, { token });
      expect(deleted.status).toBe(204);
      expectError(await stack.request('GET', `${S()}/${passId}`, { token }), 404);
    });
  });
});
